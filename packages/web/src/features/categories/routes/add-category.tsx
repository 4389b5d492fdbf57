import { zodResolver } from '@hookform/resolvers/zod';
import { addCategoryBody, fieldLabels, labels, uiTexts } from '@furniture/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FileField } from '../../../components/form/file-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { useImageUpload } from '../../../lib/use-image-upload.ts';
import { useAddCategory } from '../api/add-category.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { imageFileList } from '../../../lib/image-file.ts';

const addCategoryForm = addCategoryBody.omit({ image: true }).extend({
  image: imageFileList('image is required'),
});
type AddCategoryFormInput = z.input<typeof addCategoryForm>;
type AddCategoryForm = z.output<typeof addCategoryForm>;

export function AddCategoryRoute() {
  const { uploadImage, progress } = useImageUpload();
  const addCategory = useAddCategory();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddCategoryFormInput, unknown, AddCategoryForm>({ resolver: zodResolver(addCategoryForm) });

  async function onSubmit(values: AddCategoryForm) {
    const file = values.image[0];
    const image = file ? await uploadImage(file) : null;
    if (!image) return;
    try {
      const response = await addCategory.mutateAsync({ ...values, image });
      notify.success(response.message);
      reset();
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="add-category-title" className="max-w-xl">
      <h1 id="add-category-title" className="mb-6 text-2xl font-bold">
        {labels.dashboardMenu.addCategory}
      </h1>
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
        <TextField label={uiTexts.addCategory.categoryName} error={errors.categoryName?.message} {...register('categoryName')} />
        <TextareaField label={fieldLabels.description} rows={3} error={errors.description?.message} {...register('description')} />
        <FileField label={uiTexts.addCategory.categoryImage} error={errors.image?.message} progress={progress} {...register('image')} />
        <SubmitButton busy={isSubmitting}>{labels.dashboardMenu.addCategory}</SubmitButton>
      </form>
    </section>
  );
}
