import { zodResolver } from '@hookform/resolvers/zod';
import { emailQuery, labels, texts, uiTexts } from '@furniture/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Modal } from '../../../components/modal.tsx';
import type { z } from 'zod';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { useMakeAdmin } from '../api/make-admin.ts';
import { UsersTable } from '../components/users-table.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';

type MakeAdminInput = z.input<typeof emailQuery>;
type MakeAdmin = z.output<typeof emailQuery>;

export function AddAdminRoute() {
  const makeAdmin = useMakeAdmin();
  // The e-mail whose promotion waits for the admin's confirmation.
  const [confirming, setConfirming] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<MakeAdminInput, unknown, MakeAdmin>({ resolver: zodResolver(emailQuery), defaultValues: { email: '' } });

  async function promote(email: string) {
    try {
      const response = await makeAdmin.mutateAsync(email);
      notify.success(response.message);
      reset();
    } catch (error) {
      notify.error(errorMessage(error));
    }
    setConfirming(null);
  }

  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="add-admin-title" className="max-w-md">
        <h1 id="add-admin-title" className="mb-6 text-2xl font-bold">
          {texts.makeAdminTitle}
        </h1>
        <form onSubmit={handleSubmit(({ email }) => setConfirming(email))} noValidate className="flex flex-col gap-4">
          <TextField label={labels.login.email} type="email" autoComplete="off" required error={errors.email?.message} {...register('email')} />
          <SubmitButton busy={isSubmitting || makeAdmin.isPending}>{texts.makeAdminTitle}</SubmitButton>
        </form>
        <Modal title={confirming ? uiTexts.confirmMakeAdmin.title(confirming) : ''} open={confirming !== null} onClose={() => setConfirming(null)}>
          <p>{uiTexts.confirmMakeAdmin.body}</p>
          <div className="modal-action">
            <button type="button" className="btn" data-autofocus onClick={() => setConfirming(null)}>
              {uiTexts.confirmMakeAdmin.cancel}
            </button>
            <button type="button" className="btn btn-primary" disabled={makeAdmin.isPending} onClick={() => void (confirming && promote(confirming))}>
              {uiTexts.confirmMakeAdmin.confirm}
            </button>
          </div>
        </Modal>
      </section>
      <UsersTable role="admin" title={uiTexts.users.adminsTitle} heading="h2" />
    </div>
  );
}
