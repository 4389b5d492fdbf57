import { accountTexts } from '@furniture/contract';
import { useState } from 'react';
import { useAuth } from '../../../lib/auth.tsx';
import { passkeyFailure } from '../../../lib/passkeys.ts';

/** Signs in with a passkey the device holds: no e-mail or password to type. */
export function PasskeySignInButton({ onSuccess, onError }: { onSuccess: () => void; onError: (message: string) => void }) {
  const { signInWithPasskey } = useAuth();
  const [busy, setBusy] = useState(false);

  async function signIn() {
    setBusy(true);
    try {
      await signInWithPasskey();
      onSuccess();
    } catch (error) {
      onError(passkeyFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className="btn btn-outline w-full" disabled={busy} onClick={() => void signIn()}>
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {accountTexts.passkey.signIn}
    </button>
  );
}
