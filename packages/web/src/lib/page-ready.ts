import { useEffect } from 'react';

let whenReady: (() => void) | undefined;

/** Runs `callback` once the page's content is on the page and handles events. */
export function onPageReady(callback: () => void) {
  whenReady = callback;
}

/**
 * Rendered beside the page's content, inside its Suspense boundary: when hydrating, React makes a
 * boundary's content live after the rest of the page, so only an effect from within it says that
 * every element of the page handles events.
 */
export function PageReady() {
  useEffect(() => {
    const callback = whenReady;
    whenReady = undefined;
    callback?.();
  }, []);
  return null;
}
