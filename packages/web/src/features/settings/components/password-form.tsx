import { accountTexts } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FieldError } from '../../../components/form/field-error.tsx';
import { PasswordField } from '../../../components/form/password-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useChangePassword } from '../api/account.ts';

const { settings } = accountTexts;

/** A new password, proven by the current one. An account made with Google sets its first one by a reset link. */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const change = useChangePassword();

  if (!hasPassword) {
    return (
      <p>
        {settings.noPasswordYet}{' '}
        <Link to={paths.forgotPassword.getHref()} className="link link-primary">
          {accountTexts.reset.askAgain}
        </Link>
      </p>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    try {
      const response = await change.mutateAsync({ currentPassword, newPassword });
      notify.success(response.message);
      setCurrentPassword('');
      setNewPassword('');
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex max-w-xl flex-col gap-4">
      <PasswordField label={settings.currentPassword} autoComplete="current-password" value={currentPassword} onChange={(event) => setCurrentPassword(event.target.value)} />
      <PasswordField label={settings.newPassword} autoComplete="new-password" value={newPassword} onChange={(event) => setNewPassword(event.target.value)} />
      <div aria-live="polite">
        <FieldError message={failure ?? undefined} />
      </div>
      <SubmitButton busy={change.isPending} className="self-start">
        {settings.savePassword}
      </SubmitButton>
    </form>
  );
}
