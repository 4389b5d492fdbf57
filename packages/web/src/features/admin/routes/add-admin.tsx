import { zodResolver } from '@hookform/resolvers/zod';
import { emailQuery, labels, texts } from '@furniture/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { useMakeAdmin } from '../api/make-admin.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';

type MakeAdminInput = z.input<typeof emailQuery>;
type MakeAdmin = z.output<typeof emailQuery>;

export function AddAdminRoute() {
  const makeAdmin = useMakeAdmin();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<MakeAdminInput, unknown, MakeAdmin>({ resolver: zodResolver(emailQuery), defaultValues: { email: '' } });

  async function onSubmit({ email }: MakeAdmin) {
    try {
      const response = await makeAdmin.mutateAsync(email);
      notify.success(response.message);
      reset();
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="add-admin-title" className="max-w-md">
      <h1 id="add-admin-title" className="mb-6 text-2xl font-bold">
        {texts.makeAdminTitle}
      </h1>
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
        <TextField label={labels.login.email} type="email" autoComplete="off" required error={errors.email?.message} {...register('email')} />
        <SubmitButton busy={isSubmitting}>{texts.makeAdminTitle}</SubmitButton>
      </form>
    </section>
  );
}
