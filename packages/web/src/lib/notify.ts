import { useSyncExternalStore } from 'react';
import type * as ReactHotToast from 'react-hot-toast';

/**
 * Toasts through react-hot-toast, loaded with the first message: most visits to Home never show
 * one, so its code stays out of the first load. Messages queue in react-hot-toast's store and
 * appear as soon as the Toaster mounts.
 */
type ToastModule = typeof ReactHotToast;

let loaded: ToastModule | null = null;
let loading: Promise<ToastModule> | null = null;
const listeners = new Set<() => void>();

function loadToasts(): Promise<ToastModule> {
  loading ??= import('react-hot-toast').then((module) => {
    loaded = module;
    for (const listener of listeners) listener();
    return module;
  });
  return loading;
}

function show(kind: 'blank' | 'success' | 'error', message: string) {
  void loadToasts().then(({ toast }) => {
    if (kind === 'blank') toast(message);
    else toast[kind](message);
  });
}

export const notify = {
  message: (message: string) => show('blank', message),
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};

/** The message of anything thrown, for an error toast. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The loaded react-hot-toast module once a first message asked for it, else null. */
export function useToastModule(): ToastModule | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => loaded,
    () => null,
  );
}
