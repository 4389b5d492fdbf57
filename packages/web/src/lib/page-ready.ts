import { useEffect } from 'react';
import { useAuth } from './auth.tsx';

let whenReady: (() => void) | undefined;

/** Runs `callback` once the page's content is on the page, handles events and knows who is signed in. */
export function onPageReady(callback: () => void) {
  whenReady = callback;
}

/**
 * Rendered beside the page's content, inside its Suspense boundary: when hydrating, React makes a
 * boundary's content live after the rest of the page, so only an effect from within it says that
 * every element of the page handles events. It waits for the session as well: a page rendered by the
 * server hydrates as nobody's, and a Book Now tap made again before the user is known would send a
 * signed-in buyer to the login page.
 */
export function PageReady() {
  const { loading } = useAuth();
  useEffect(() => {
    if (loading) return;
    const callback = whenReady;
    whenReady = undefined;
    callback?.();
  }, [loading]);
  return null;
}
