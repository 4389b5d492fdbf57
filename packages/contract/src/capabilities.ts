import type { UserRole } from './enums.ts';

/**
 * What an account may do (decision 37). `userRole` stays the account's main role, which the
 * specification's screens and calls use; access to a route or screen goes by capability.
 */
export const capabilities = ['buy', 'sell', 'admin'] as const;
export type Capability = (typeof capabilities)[number];

/** The capabilities an account starts with in each main role: everyone who sells can buy too. */
export const roleCapabilities: Record<UserRole, readonly Capability[]> = {
  buyer: ['buy'],
  seller: ['buy', 'sell'],
  admin: ['admin'],
};

/** The main role of an account holding these capabilities: admin over seller over buyer. */
export function mainRole(held: readonly Capability[]): UserRole {
  if (held.includes('admin')) return 'admin';
  return held.includes('sell') ? 'seller' : 'buyer';
}

const doers: Record<Capability, string> = { buy: 'buyers', sell: 'sellers', admin: 'admins' };

export const capabilityTexts = {
  /** A route's refusal to an account without any of its capabilities. */
  onlyFor: (needed: readonly Capability[]) =>
    needed.length === 1 && needed[0] === 'sell'
      ? 'Only sellers can do this: press "Start selling" in your dashboard first.'
      : `Only ${needed.map((capability) => doers[capability]).join(' or ')} can do this.`,
  /** A dashboard page the account has no capability for: it is sent Home and told why. */
  pageFor: {
    buy: 'That page is only for buying.',
    sell: 'Start selling first to open that page.',
  } satisfies Record<Exclude<Capability, 'admin'>, string>,
  startSelling: {
    title: 'Sell your furniture too',
    body: 'List the pieces you no longer need. You keep your orders, wishes and messages.',
    action: 'Start selling',
    started: 'You can sell now: add your first product.',
  },
} as const;
