import { accountTexts } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { FieldError } from '../../../components/form/field-error.tsx';
import { PasswordField } from '../../../components/form/password-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useAskEmailChange } from '../api/account.ts';

const { settings } = accountTexts;

/** A new e-mail, proven by the password when the account has one; a link sent to it confirms the change. */
export function EmailForm({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const [newEmail, setNewEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const ask = useAskEmailChange();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setSent(null);
    try {
      const response = await ask.mutateAsync({ email: newEmail, ...(hasPassword ? { currentPassword } : {}) });
      notify.success(response.message);
      setSent(response.message);
      setCurrentPassword('');
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex max-w-xl flex-col gap-4">
      <p>{settings.currentEmail(email)}</p>
      <TextField label={settings.newEmail} type="email" autoComplete="email" value={newEmail} onChange={(event) => setNewEmail(event.target.value)} />
      {hasPassword && (
        <PasswordField label={settings.passwordToConfirm} autoComplete="current-password" value={currentPassword} onChange={(event) => setCurrentPassword(event.target.value)} />
      )}
      <div aria-live="polite">
        <FieldError message={failure ?? undefined} />
        {sent && <p>{sent}</p>}
      </div>
      <SubmitButton busy={ask.isPending} className="self-start">
        {settings.sendEmailLink}
      </SubmitButton>
    </form>
  );
}
