import { labels, OIDC_POPUP } from '@furniture/contract';
import { useEffect, useRef, useState } from 'react';
import { useAppConfig } from '../../../lib/app-config.ts';
import { useAuth } from '../../../lib/auth.tsx';

type OidcResult = { type: 'oidc-result'; ok: boolean; message?: string };

const isOidcResult = (data: unknown): data is OidcResult =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'oidc-result';

/**
 * Signs in with Google in a 500x600 popup. The popup's last page posts the outcome to this
 * window; on success the refresh cookie it set is exchanged for an access token.
 */
export function GoogleSignInButton({ onSuccess, onError }: { onSuccess: () => void; onError: (message: string) => void }) {
  const config = useAppConfig();
  const { completeExternalSignIn } = useAuth();
  const [waiting, setWaiting] = useState(false);
  const cleanup = useRef<(() => void) | null>(null);

  useEffect(() => () => cleanup.current?.(), []);

  function openPopup() {
    const left = window.screenX + Math.max(0, (window.outerWidth - OIDC_POPUP.width) / 2);
    const top = window.screenY + Math.max(0, (window.outerHeight - OIDC_POPUP.height) / 2);
    const popup = window.open(
      '/api/auth/oidc/start',
      'google-sign-in',
      `popup=yes,width=${OIDC_POPUP.width},height=${OIDC_POPUP.height},left=${left},top=${top}`,
    );
    if (!popup) {
      onError('The sign-in window was blocked. Allow pop-ups for this site and try again.');
      return;
    }
    setWaiting(true);
    let settled = false;

    const finish = async (result: OidcResult | null) => {
      if (settled) return;
      settled = true;
      cleanup.current?.();
      if (result && !result.ok) {
        setWaiting(false);
        onError(result.message ?? 'Google sign-in failed');
        return;
      }
      // Without a message (the popup was closed) a session may still have been started: try it.
      const user = await completeExternalSignIn().catch(() => null);
      setWaiting(false);
      if (user) onSuccess();
      else if (result) onError(result.message ?? 'Google sign-in failed');
    };

    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isOidcResult(event.data)) return;
      void finish(event.data);
    };
    const timer = window.setInterval(() => {
      if (popup.closed) void finish(null);
    }, 500);
    window.addEventListener('message', onMessage);
    cleanup.current = () => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(timer);
      cleanup.current = null;
    };
  }

  const enabled = config.data?.googleSignIn === true;
  return (
    <button type="button" className="btn btn-outline w-full" disabled={!enabled || waiting} onClick={openPopup}>
      {waiting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {config.isPending ? labels.login.google : enabled ? labels.login.google : 'Google sign-in is not set up'}
    </button>
  );
}
