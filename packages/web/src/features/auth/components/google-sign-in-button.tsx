import { labels, OIDC_POPUP, serverMessages, uiTexts, type OidcPopupResult } from '@furniture/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useAppConfig } from '../../../lib/app-config.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { LinkAccountForm } from './link-account-form.tsx';

/** The popup's result page posts to its opener; it may also announce on this channel. */
const RESULT_CHANNEL = 'furniture-oidc';
/** How long a late result from the popup is still taken (a sign-in at the provider can take a while). */
const LATE_RESULT_MS = 10 * 60 * 1000;

const isOidcResult = (data: unknown): data is OidcPopupResult =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'oidc-result';

type GoogleSignInButtonProps = {
  onSuccess: () => void;
  /** The account has an authenticator app: a code from it finishes the sign-in. */
  onSecondStep: (challenge: string) => void;
  onError: (message: string) => void;
};

/**
 * Signs in with Google in a 500x600 popup. The popup's last page posts the outcome to this
 * window; on success the refresh cookie it set is exchanged for an access token.
 */
export function GoogleSignInButton({ onSuccess, onSecondStep, onError }: GoogleSignInButtonProps) {
  const config = useAppConfig();
  const { completeExternalSignIn } = useAuth();
  const [waiting, setWaiting] = useState(false);
  const [linkMessage, setLinkMessage] = useState<string | null>(null);
  const stopListening = useRef<(() => void) | null>(null);
  const noteId = useId();

  useEffect(() => () => stopListening.current?.(), []);

  async function handleResult(result: OidcPopupResult) {
    stopListening.current?.();
    setWaiting(false);
    if (result.linkRequired) {
      setLinkMessage(result.message ?? serverMessages.google.linkWithPassword);
      return;
    }
    if (result.secondStepChallenge) {
      onSecondStep(result.secondStepChallenge);
      return;
    }
    if (!result.ok) {
      onError(result.message ?? serverMessages.google.failed);
      return;
    }
    const user = await completeExternalSignIn().catch(() => null);
    if (user) onSuccess();
    else onError(result.message ?? serverMessages.google.failed);
  }

  function openPopup() {
    stopListening.current?.();
    setLinkMessage(null);
    const left = window.screenX + Math.max(0, (window.outerWidth - OIDC_POPUP.width) / 2);
    const top = window.screenY + Math.max(0, (window.outerHeight - OIDC_POPUP.height) / 2);
    const popup = window.open(
      '/api/auth/oidc/start',
      'google-sign-in',
      `popup=yes,width=${OIDC_POPUP.width},height=${OIDC_POPUP.height},left=${left},top=${top}`,
    );
    if (!popup) {
      onError(uiTexts.auth.popupBlocked);
      return;
    }
    setWaiting(true);
    let settled = false;

    const onMessage = (event: MessageEvent) => {
      if (settled || event.origin !== window.location.origin || !isOidcResult(event.data)) return;
      settled = true;
      void handleResult(event.data);
    };
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(RESULT_CHANNEL);
    channel?.addEventListener('message', onMessage);
    window.addEventListener('message', onMessage);
    // Once the window is closed (or cut off from this page by the browser), a session it may
    // have started is picked up; a result that arrives later is still taken.
    const poll = window.setInterval(() => {
      if (!popup.closed) return;
      window.clearInterval(poll);
      void completeExternalSignIn()
        .catch(() => null)
        .then((user) => {
          if (settled) return;
          if (!user) {
            setWaiting(false);
            return;
          }
          settled = true;
          stopListening.current?.();
          setWaiting(false);
          onSuccess();
        });
    }, 500);
    const expiry = window.setTimeout(() => stopListening.current?.(), LATE_RESULT_MS);
    stopListening.current = () => {
      window.removeEventListener('message', onMessage);
      channel?.close();
      window.clearInterval(poll);
      window.clearTimeout(expiry);
      stopListening.current = null;
    };
  }

  const enabled = config.data?.googleSignIn === true;
  const notSetUp = !config.isPending && !enabled;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <button
          type="button"
          className="btn btn-outline w-full"
          disabled={!enabled || waiting}
          aria-describedby={notSetUp ? noteId : undefined}
          onClick={openPopup}
        >
          {waiting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {labels.login.google}
        </button>
        {notSetUp && (
          <p id={noteId} className="text-sm">
            {uiTexts.googleNotSetUp}
          </p>
        )}
      </div>
      {linkMessage && <LinkAccountForm message={linkMessage} onSuccess={onSuccess} onSecondStep={onSecondStep} onError={onError} />}
    </div>
  );
}
