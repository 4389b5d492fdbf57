import { zodResolver } from '@hookform/resolvers/zod';
import { addProductBody, addProductTexts, conditions, fieldLabels, labels, saleTexts, searchTexts, uiTexts, type Measurements, type SellerProduct } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { SelectField } from '../../../components/form/select-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { paths } from '../../../config/paths.ts';
import { categoriesQuery } from '../../../lib/categories.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { useImageUpload } from '../../../lib/use-image-upload.ts';
import { useAddProduct } from '../api/add-product.ts';
import { useEditProduct } from '../api/edit-product.ts';
import { myProductsQuery } from '../api/get-my-products.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { PhotoPicker, type PickedPhoto } from '../components/photo-picker.tsx';
import { PriceGuideHint } from '../components/price-guide-hint.tsx';

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
  const product = listings?.find((listing) => listing._id === id);
  if (isPending) return <span className="loading loading-spinner" aria-label={uiTexts.loading} />;
  if (!product) return <p role="alert">{saleTexts.editNotFound}</p>;
  return <ProductForm key={product._id} product={product} />;
}

const asText = (value: number | undefined) => (value === undefined ? '' : String(value));

function ProductForm({ product }: { product?: SellerProduct }) {
  const seller = useUserRecord();
  const { data: categories = [] } = useQuery(categoriesQuery());
  const { uploadImage, progress } = useImageUpload();
  const addProduct = useAddProduct();
  const editProduct = useEditProduct();
  const navigate = useNavigate();
  const [photos, setPhotos] = useState<PickedPhoto[]>([]);
  const [photosError, setPhotosError] = useState<string | undefined>();
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AddProductFormInput, unknown, AddProductForm>({
    resolver: zodResolver(addProductForm),
    // The session's copy of the user is there from the first render, so the read-only fields start filled.
    defaultValues: {
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
    },
  });
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
    if (photos.length === 0 && !product) return;
    // One upload after another, so the progress bar shows each and the order stays the seller's.
    const uploaded: string[] = [];
    for (const photo of photos) {
      const url = await uploadImage(photo.file);
      if (!url) return;
      uploaded.push(url);
    }
    const categoryName = categories.find((category) => category._id === values.categoryId)?.categoryName;
    try {
      if (product) {
        const { sellerName: _name, sellerEmail: _email, ...edited } = values;
        const response = await editProduct.mutateAsync({
          id: product._id,
          body: { ...edited, measurements, ...(uploaded.length > 0 ? { photos: uploaded } : {}) },
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
      notify.success(response.message);
      await navigate(paths.dashboard.myProducts.getHref());
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  const title = product ? saleTexts.editTitle : labels.dashboardMenu.addProduct;
  return (
    <section aria-labelledby="add-product-title" className="max-w-3xl">
      <h1 id="add-product-title" className="mb-6 text-2xl font-bold">
        {title}
      </h1>
      <form
        onSubmit={(event) => {
          // Photos live outside the form library: their message shows with the other fields' ones.
          setPhotosError(photos.length > 0 || product ? undefined : addProductTexts.photosRequired);
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
        <TextField
          label={`${labels.product.resalePrice} ($)`}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          error={errors.resalePrice?.message}
          {...register('resalePrice')}
        />
        <div className="md:col-span-2">
          <TextareaField label={fieldLabels.description} rows={3} error={errors.description?.message} {...register('description')} />
        </div>
        <TextField label={addProductTexts.sellerName} readOnly error={errors.sellerName?.message} {...register('sellerName')} />
        <TextField label={addProductTexts.sellerEmail} type="email" readOnly error={errors.sellerEmail?.message} {...register('sellerEmail')} />
        <TextField label={saleTexts.phone} type="tel" inputMode="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
        <TextField label={fieldLabels.location} error={errors.location?.message} {...register('location')} />
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
          {product && <p className="mt-1 text-sm">{saleTexts.keepPhotos}</p>}
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
