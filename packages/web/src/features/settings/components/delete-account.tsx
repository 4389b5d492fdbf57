import { accountDataTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FieldError } from '../../../components/form/field-error.tsx';
import { PasswordField } from '../../../components/form/password-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { paths } from '../../../config/paths.ts';
import { deleteAccount, passkeyAnswer } from '../../../lib/auth-store.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { passkeyFailure } from '../../../lib/passkeys.ts';
import { passkeysQuery } from '../api/account.ts';

const { settings } = accountDataTexts;

/**
 * "Delete my account", confirmed in a dialog with the password or, for an account that has one, a
 * passkey. Once the account is gone the tab goes Home, is signed out, and is told so.
 */
export function DeleteAccount({ hasPassword }: { hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const hasPasskey = (useQuery(passkeysQuery()).data?.length ?? 0) > 0;

  async function confirm(confirmation: () => Promise<Parameters<typeof deleteAccount>[0]>, failed: (error: unknown) => string) {
    setFailure(null);
    setBusy(true);
    try {
      await deleteAccount(await confirmation(), () => navigate(paths.home.getHref()));
      notify.success(settings.deleted);
    } catch (error) {
      setFailure(failed(error));
    } finally {
      setBusy(false);
    }
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    void confirm(async () => ({ password }), errorMessage);
  }

  return (
    <div className="flex max-w-xl flex-col gap-3">
      <p>{settings.deleteIntro}</p>
      <button type="button" className="btn btn-error self-start" onClick={() => setOpen(true)}>
        {settings.deleteAction}
      </button>
      <Modal title={settings.dialogTitle} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={submitPassword} noValidate className="flex flex-col gap-3">
          <p>{settings.dialogIntro}</p>
          {hasPassword && (
            <PasswordField label={settings.password} autoComplete="current-password" data-autofocus value={password} onChange={(event) => setPassword(event.target.value)} />
          )}
          <div aria-live="polite">
            <FieldError message={failure ?? undefined} />
          </div>
          <div className="modal-action flex-wrap gap-2">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {settings.cancel}
            </button>
            {hasPasskey && (
              <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void confirm(async () => ({ passkey: await passkeyAnswer() }), passkeyFailure)}>
                {settings.confirmWithPasskey}
              </button>
            )}
            {hasPassword && (
              <button type="submit" className="btn btn-error" disabled={busy}>
                {settings.confirmWithPassword}
              </button>
            )}
          </div>
        </form>
      </Modal>
    </div>
  );
}
