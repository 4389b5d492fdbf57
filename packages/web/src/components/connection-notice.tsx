import { uiTexts } from '@furniture/contract';
import { useAuth } from '../lib/auth.tsx';

/**
 * Says so while the signed-in person's account cannot be loaded for want of an answer (offline, the
 * server down): their pages wait for it rather than asking them to log in again. The live region is
 * always there, so that screen readers announce the text when it appears.
 */
export function ConnectionNotice() {
  const { unreachable } = useAuth();
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-3">
      {unreachable && <p className="alert alert-warning pointer-events-auto max-w-md shadow-lg">{uiTexts.shell.unreachable}</p>}
    </div>
  );
}
