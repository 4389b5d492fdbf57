import { zodResolver } from '@hookform/resolvers/zod';
import { addProductBody, conditions, labels } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { FileField } from '../../../components/form/file-field.tsx';
import { SelectField } from '../../../components/form/select-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { paths } from '../../../config/paths.ts';
import { categoriesQuery } from '../../../lib/categories.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { useImageUpload } from '../../../lib/use-image-upload.ts';
import { useAddProduct } from '../api/add-product.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { imageFileList } from '../../../lib/image-file.ts';

const addProductForm = addProductBody.omit({ productImage: true, categoryName: true }).extend({
  productImage: imageFileList('productImage is required'),
});
type AddProductFormInput = z.input<typeof addProductForm>;
type AddProductForm = z.output<typeof addProductForm>;

export function AddProductRoute() {
  const seller = useUserRecord();
  const { data: categories = [] } = useQuery(categoriesQuery());
  const { uploadImage, progress } = useImageUpload();
  const addProduct = useAddProduct();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AddProductFormInput, unknown, AddProductForm>({
    resolver: zodResolver(addProductForm),
    // The session's copy of the user is there from the first render, so the read-only fields start filled.
    defaultValues: {
      categoryId: '',
      condition: conditions[0],
      productName: '',
      yearsOfUsedProduct: '',
      originalPrice: '',
      resalePrice: '',
      description: '',
      phone: '',
      location: '',
      sellerName: seller?.name ?? '',
      sellerEmail: seller?.email ?? '',
    },
  });

  async function onSubmit(values: AddProductForm) {
    const file = values.productImage[0];
    const productImage = file ? await uploadImage(file) : null;
    if (!productImage) return;
    const categoryName = categories.find((category) => category._id === values.categoryId)?.categoryName;
    try {
      const response = await addProduct.mutateAsync({ ...values, categoryName, productImage });
      notify.success(response.message);
      await navigate(paths.dashboard.myProducts.getHref());
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="add-product-title" className="max-w-3xl">
      <h1 id="add-product-title" className="mb-6 text-2xl font-bold">
        {labels.dashboardMenu.addProduct}
      </h1>
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <SelectField label="Product Category" error={errors.categoryId?.message} {...register('categoryId')}>
          <option value="">Select a category</option>
          {categories.map((category) => (
            <option key={category._id} value={category._id}>
              {category.categoryName}
            </option>
          ))}
        </SelectField>
        <SelectField label="Condition" error={errors.condition?.message} {...register('condition')}>
          {conditions.map((condition) => (
            <option key={condition} value={condition}>
              {condition}
            </option>
          ))}
        </SelectField>
        <TextField label="Product Name" error={errors.productName?.message} {...register('productName')} />
        <TextField label="Years of Use" placeholder="e.g. 2 years" error={errors.yearsOfUsedProduct?.message} {...register('yearsOfUsedProduct')} />
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
          <TextareaField label="Description" rows={3} error={errors.description?.message} {...register('description')} />
        </div>
        <TextField label="Seller Name" readOnly error={errors.sellerName?.message} {...register('sellerName')} />
        <TextField label="Seller Email" type="email" readOnly error={errors.sellerEmail?.message} {...register('sellerEmail')} />
        <TextField label="Phone" type="tel" inputMode="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
        <TextField label="Location" error={errors.location?.message} {...register('location')} />
        <div className="md:col-span-2">
          <FileField label="Product Image" error={errors.productImage?.message} progress={progress} {...register('productImage')} />
        </div>
        <div className="md:col-span-2">
          <SubmitButton busy={isSubmitting} className="w-full">
            {labels.dashboardMenu.addProduct}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
