import { useSyncExternalStore } from 'react';

const nothingToSubscribe = () => () => undefined;

/** True while React renders outside a browser (Home's shell at build time), false in the browser. */
export function useServerRender(): boolean {
  return useSyncExternalStore(
    nothingToSubscribe,
    () => false,
    () => true,
  );
}
