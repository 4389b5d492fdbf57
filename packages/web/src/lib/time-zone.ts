import { useSyncExternalStore } from 'react';

const unchanging = () => () => undefined;

/**
 * The time zone to write dates in on a page the server may render: the reader's own (undefined),
 * but UTC on the server and while the app hydrates its page, so that both write the same words
 * whatever the reader's zone (a difference would make React throw the page away and render it
 * again); the reader's own right after.
 */
export function useTimeZone(): string | undefined {
  return useSyncExternalStore(unchanging, () => undefined, () => 'UTC');
}
