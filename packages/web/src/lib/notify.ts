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
const changed = () => {
  for (const listener of listeners) listener();
};

function loadToasts(): Promise<ToastModule> {
  loading ??= import('react-hot-toast').then(
    (module) => {
      loaded = module;
      changed();
      return module;
    },
    (error: unknown) => {
      // Offline, the toasts' code cannot arrive: the next message tries again.
      loading = null;
      throw error;
    },
  );
  return loading;
}

export interface PlainMessage {
  id: number;
  kind: 'blank' | 'success' | 'error';
  text: string;
}

/** Messages shown without react-hot-toast, whose code could not be loaded; each for as long as a toast would be. */
let plainMessages: PlainMessage[] = [];
let nextId = 0;
const PLAIN_MESSAGE_MS = 4000;

function showPlain(kind: PlainMessage['kind'], text: string) {
  const message = { id: ++nextId, kind, text };
  plainMessages = [...plainMessages, message];
  changed();
  setTimeout(() => {
    plainMessages = plainMessages.filter((shown) => shown !== message);
    changed();
  }, PLAIN_MESSAGE_MS);
}

function show(kind: 'blank' | 'success' | 'error', message: string) {
  loadToasts().then(
    ({ toast }) => {
      if (kind === 'blank') toast(message);
      else toast[kind](message);
    },
    () => showPlain(kind, message),
  );
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

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The loaded react-hot-toast module once a first message asked for it, else null. */
export function useToastModule(): ToastModule | null {
  return useSyncExternalStore(subscribe, () => loaded, () => null);
}

/** The messages shown while react-hot-toast's code cannot be loaded (offline). */
export function usePlainMessages(): PlainMessage[] {
  return useSyncExternalStore(subscribe, () => plainMessages, () => plainMessages);
}
