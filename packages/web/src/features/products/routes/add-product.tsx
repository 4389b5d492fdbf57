import { zodResolver } from '@hookform/resolvers/zod';
import { addProductBody, addProductTexts, conditions, fieldLabels, labels, saleTexts, searchTexts, uiTexts, type Measurements, type SellerProduct } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { SelectField } from '../../../components/form/select-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PlaceCombobox } from '../../../components/place-combobox.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { paths } from '../../../config/paths.ts';
import { categoriesQuery } from '../../../lib/categories.ts';
import { placeLabel } from '../../../lib/places.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { useImageUpload } from '../../../lib/use-image-upload.ts';
import { useAddProduct } from '../api/add-product.ts';
import { useEditProduct } from '../api/edit-product.ts';
import { myProductsQuery } from '../api/get-my-products.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { currentPhotos, PhotoPicker, type PickedPhoto } from '../components/photo-picker.tsx';
import { PriceGuideHint } from '../components/price-guide-hint.tsx';
import { YouReceive } from '../components/you-receive.tsx';

/** Measurements are typed as text and checked together: all three, or none. */
const addProductForm = addProductBody.omit({ productImage: true, photos: true, measurements: true, categoryName: true }).extend({
  // A new listing starts with no condition chosen (the empty first option).
  condition: z.string().pipe(addProductBody.shape.condition),
  widthCm: z.string(),
  depthCm: z.string(),
  heightCm: z.string(),
});

function measurementsOf(values: { widthCm: string; depthCm: string; heightCm: string }): Measurements | null | 'incomplete' {
  const given = [values.widthCm, values.depthCm, values.heightCm].map((value) => value.trim());
  if (given.every((value) => value === '')) return null;
  const [widthCm, depthCm, heightCm] = given.map(Number) as [number, number, number];
  if (given.some((value) => value === '') || ![widthCm, depthCm, heightCm].every((value) => value > 0)) return 'incomplete';
  return { widthCm, depthCm, heightCm };
}
type AddProductFormInput = z.input<typeof addProductForm>;
type AddProductForm = z.output<typeof addProductForm>;

export function AddProductRoute() {
  return <ProductForm />;
}

/** The Add Product form, filled in with one of the seller's listings, saving its changes. */
export function EditProductRoute() {
  const { id } = useParams();
  const seller = useUserRecord();
  const { data: listings, isPending } = useQuery({ ...myProductsQuery(seller?.email ?? ''), enabled: Boolean(seller) });
  // The category list must be there before the form: a select shows its value only among its options.
  const { isPending: categoriesPending } = useQuery(categoriesQuery());
  const product = listings?.find((listing) => listing._id === id);
  if (isPending || categoriesPending) return <span className="loading loading-spinner" aria-label={uiTexts.loading} />;
  if (!product) return <p role="alert">{saleTexts.editNotFound}</p>;
  return <ProductForm key={product._id} product={product} />;
}

const asText = (value: number | undefined) => (value === undefined ? '' : String(value));

/** Where a new listing's draft is kept on this device, per seller; photos are files and are not kept. */
const draftKey = (email: string) => `add-product-draft:${email}`;

function readDraft(key: string): Partial<AddProductFormInput> | null {
  try {
    const saved = localStorage.getItem(key);
    return saved ? (JSON.parse(saved) as Partial<AddProductFormInput>) : null;
  } catch {
    return null;
  }
}

/**
 * Asks before the page is left with unsaved changes: inside the app with a dialog, on a reload or
 * when closing with the browser's own. `unsaved` is asked at the moment of leaving.
 */
function LeaveWarning({ unsaved }: { unsaved: () => boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && unsaved());
  const latest = useRef(unsaved);
  useEffect(() => {
    latest.current = unsaved;
  });
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);
  return (
    <Modal title={addProductTexts.leave.title} open={blocker.state === 'blocked'} onClose={() => blocker.reset?.()}>
      <p>{addProductTexts.leave.body}</p>
      <div className="modal-action">
        <button type="button" className="btn btn-primary" data-autofocus onClick={() => blocker.reset?.()}>
          {addProductTexts.leave.stay}
        </button>
        <button type="button" className="btn" onClick={() => blocker.proceed?.()}>
          {addProductTexts.leave.leave}
        </button>
      </div>
    </Modal>
  );
}

function ProductForm({ product }: { product?: SellerProduct }) {
  const seller = useUserRecord();
  const { data: categories = [] } = useQuery(categoriesQuery());
  const { uploadImage, progress } = useImageUpload();
  const addProduct = useAddProduct();
  const editProduct = useEditProduct();
  const navigate = useNavigate();
  const [photos, setPhotos] = useState<PickedPhoto[]>(() => (product ? currentPhotos(product.photos) : []));
  const [photosError, setPhotosError] = useState<string | undefined>();
  // A new listing picks up where the seller left it on this device.
  const draftAt = product || !seller ? null : draftKey(seller.email);
  const [draft, setDraft] = useState(() => (draftAt ? readDraft(draftAt) : null));
  // Set once the listing is saved, so leaving for My Products is not held up.
  const saved = useRef(false);
  const startValues: AddProductFormInput = {
    categoryId: product?.categoryId ?? '',
    condition: product?.condition ?? '',
    productName: product?.productName ?? '',
    yearsOfUsedProduct: product?.yearsOfUsedProduct ?? '',
    originalPrice: asText(product?.originalPrice),
    resalePrice: asText(product?.resalePrice),
    description: product?.description ?? '',
    phone: product?.phone ?? '',
    location: product?.location ?? '',
    sellerName: seller?.name ?? '',
    sellerEmail: seller?.email ?? '',
    widthCm: asText(product?.measurements?.widthCm),
    depthCm: asText(product?.measurements?.depthCm),
    heightCm: asText(product?.measurements?.heightCm),
  };
  const {
    register,
    handleSubmit,
    control,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<AddProductFormInput, unknown, AddProductForm>({
    resolver: zodResolver(addProductForm),
    // The session's copy of the user is there from the first render, so the read-only fields start filled.
    defaultValues: { ...startValues, ...draft, sellerName: startValues.sellerName, sellerEmail: startValues.sellerEmail },
  });
  const values = useWatch({ control });
  useEffect(() => {
    if (draftAt && isDirty && !saved.current) localStorage.setItem(draftKey(seller!.email), JSON.stringify(values));
  }, [draftAt, isDirty, values, seller]);
  const unsaved = () => !saved.current && (isDirty || photos.some((photo) => photo.file));
  const [categoryId, condition, originalPrice, yearsOfUsedProduct, resalePrice] = useWatch({
    control,
    name: ['categoryId', 'condition', 'originalPrice', 'yearsOfUsedProduct', 'resalePrice'],
  });

  async function onSubmit({ widthCm, depthCm, heightCm, ...values }: AddProductForm) {
    const measurements = measurementsOf({ widthCm, depthCm, heightCm });
    if (measurements === 'incomplete') {
      setError('widthCm', { message: addProductTexts.measurementsIncomplete });
      return;
    }
    if (photos.length === 0) return;
    // One upload after another, so the progress bar shows each and the order stays the seller's;
    // the listing's current photos are kept where the seller left them.
    const uploaded: string[] = [];
    for (const photo of photos) {
      const url = photo.file ? await uploadImage(photo.file) : photo.preview;
      if (!url) return;
      uploaded.push(url);
    }
    const categoryName = categories.find((category) => category._id === values.categoryId)?.categoryName;
    try {
      saved.current = true;
      if (product) {
        const { sellerName: _name, sellerEmail: _email, ...edited } = values;
        const response = await editProduct.mutateAsync({
          id: product._id,
          body: { ...edited, measurements, photos: uploaded },
        });
        notify.success(response.message);
        await navigate(paths.dashboard.myProducts.getHref());
        return;
      }
      const response = await addProduct.mutateAsync({
        ...values,
        categoryName,
        productImage: uploaded[0],
        photos: uploaded,
        ...(measurements ? { measurements } : {}),
      });
      if (draftAt) localStorage.removeItem(draftAt);
      notify.success(response.message);
      await navigate(paths.dashboard.myProducts.getHref());
    } catch (error) {
      saved.current = false;
      notify.error(errorMessage(error));
    }
  }

  const title = product ? saleTexts.editTitle : labels.dashboardMenu.addProduct;
  return (
    <section aria-labelledby="add-product-title" className="max-w-3xl">
      <h1 id="add-product-title" className="mb-6 text-2xl font-bold">
        {title}
      </h1>
      <LeaveWarning unsaved={unsaved} />
      {draft && (
        <div role="status" className="alert mb-4 flex flex-wrap justify-between">
          <span>{addProductTexts.draftRestored}</span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              if (draftAt) localStorage.removeItem(draftAt);
              setDraft(null);
              reset({ ...startValues });
            }}
          >
            {addProductTexts.startOver}
          </button>
        </div>
      )}
      <form
        onSubmit={(event) => {
          // Photos live outside the form library: their message shows with the other fields' ones.
          setPhotosError(photos.length > 0 ? undefined : addProductTexts.photosRequired);
          void handleSubmit(onSubmit)(event);
        }}
        noValidate className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <SelectField label={addProductTexts.productCategory} error={errors.categoryId?.message} {...register('categoryId')}>
          <option value="">{addProductTexts.chooseCategory}</option>
          {categories.map((category) => (
            <option key={category._id} value={category._id}>
              {category.categoryName}
            </option>
          ))}
        </SelectField>
        <SelectField label={fieldLabels.condition} error={errors.condition?.message} {...register('condition')}>
          <option value="">{addProductTexts.chooseCondition}</option>
          {conditions.map((condition) => (
            <option key={condition} value={condition}>
              {condition}
            </option>
          ))}
        </SelectField>
        <TextField label={labels.booking.productName} error={errors.productName?.message} {...register('productName')} />
        <TextField label={addProductTexts.yearsOfUse} placeholder={addProductTexts.yearsOfUsePlaceholder} error={errors.yearsOfUsedProduct?.message} {...register('yearsOfUsedProduct')} />
        <TextField
          label={`${labels.product.originalPrice} ($)`}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          error={errors.originalPrice?.message}
          {...register('originalPrice')}
        />
        <div>
          <TextField
            label={`${labels.product.resalePrice} ($)`}
            type="number"
            min={0}
            step="0.01"
            inputMode="decimal"
            error={errors.resalePrice?.message}
            {...register('resalePrice')}
          />
          <YouReceive id="you-receive" price={String(resalePrice ?? '')} />
        </div>
        <div className="md:col-span-2">
          <TextareaField label={fieldLabels.description} rows={3} error={errors.description?.message} {...register('description')} />
        </div>
        <TextField label={addProductTexts.sellerName} readOnly error={errors.sellerName?.message} {...register('sellerName')} />
        <TextField label={addProductTexts.sellerEmail} type="email" readOnly error={errors.sellerEmail?.message} {...register('sellerEmail')} />
        <TextField label={saleTexts.phone} type="tel" inputMode="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
        {/* A town picked from the suggestions, or any text: the server finds the town it names (decision 41). */}
        <Controller
          name="location"
          control={control}
          render={({ field }) => (
            <PlaceCombobox
              label={fieldLabels.location}
              error={errors.location?.message}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onTextChange={field.onChange}
              onPick={(place) => field.onChange(placeLabel(place))}
              onBlur={field.onBlur}
            />
          )}
        />
        <fieldset className="md:col-span-2">
          <legend className="mb-1 font-semibold">{addProductTexts.measurements}</legend>
          <div className="grid grid-cols-3 gap-3">
            <TextField label={searchTexts.width} type="number" min={0} step="0.1" inputMode="decimal" error={errors.widthCm?.message} {...register('widthCm')} />
            <TextField label={searchTexts.depth} type="number" min={0} step="0.1" inputMode="decimal" {...register('depthCm')} />
            <TextField label={searchTexts.height} type="number" min={0} step="0.1" inputMode="decimal" {...register('heightCm')} />
          </div>
        </fieldset>
        <div className="md:col-span-2">
          <PriceGuideHint
            categoryId={categoryId ?? ''}
            condition={String(condition ?? '')}
            originalPrice={String(originalPrice ?? '')}
            yearsOfUsedProduct={yearsOfUsedProduct ?? ''}
            resalePrice={String(resalePrice ?? '')}
          />
        </div>
        <div className="md:col-span-2">
          <PhotoPicker photos={photos} onChange={setPhotos} error={photosError} progress={progress} />
        </div>
        <div className="md:col-span-2">
          <SubmitButton busy={isSubmitting} className="w-full">
            {product ? saleTexts.saveChanges : labels.dashboardMenu.addProduct}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
