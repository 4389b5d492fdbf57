import type { Capability, PublicUser } from '@furniture/contract';

/** Whether the account may do this (decision 37): screens go by capability, never by the main role. */
export const can = (user: Pick<PublicUser, 'capabilities'> | null | undefined, capability: Capability) =>
  user?.capabilities.includes(capability) ?? false;
