import { messages, uiTexts } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/form/text-field.tsx';
import { useAuth } from '../../../lib/auth.tsx';

/** After Google sign-in found an existing account: its password links the two and signs in. */
export function LinkAccountForm({
  message,
  onSuccess,
  onSecondStep,
  onError,
}: {
  message: string;
  onSuccess: () => void;
  onSecondStep: (challenge: string) => void;
  onError: (message: string) => void;
}) {
  const { linkExternalAccount } = useAuth();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(messages.passwordRequired);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const result = await linkExternalAccount(password);
      if ('challenge' in result) onSecondStep(result.challenge);
      else onSuccess();
    } catch (caught) {
      onError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
      <p role="status">{message}</p>
      <TextField
        label={uiTexts.auth.accountPassword}
        type="password"
        autoComplete="current-password"
        value={password}
        error={error}
        onChange={(event) => setPassword(event.target.value)}
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {uiTexts.auth.linkGoogle}
      </button>
    </form>
  );
}
