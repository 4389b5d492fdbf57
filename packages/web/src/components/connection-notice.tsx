import { uiTexts } from '@furniture/contract';
import { useSyncExternalStore } from 'react';
import { useAuth } from '../lib/auth.tsx';

function subscribeToConnection(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Whether the browser knows it has no network. */
const useOffline = () => useSyncExternalStore(subscribeToConnection, () => !navigator.onLine, () => false);

/**
 * Says so while the browser is offline, and while the signed-in person's account cannot be loaded
 * for want of an answer (the server down): their pages wait for it rather than asking them to log
 * in again. The live region is always there, so that screen readers announce the text when it appears.
 */
export function ConnectionNotice() {
  const { unreachable } = useAuth();
  const offline = useOffline();
  const text = offline ? uiTexts.shell.offline : unreachable ? uiTexts.shell.unreachable : null;
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-3">
      {text && <p className="alert alert-warning pointer-events-auto max-w-md shadow-lg">{text}</p>}
    </div>
  );
}
