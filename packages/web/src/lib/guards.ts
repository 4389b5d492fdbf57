import { capabilityTexts, messages } from '@furniture/contract';
import { redirect, type MiddlewareFunction } from 'react-router';
import { paths } from '../config/paths.ts';
import { authReady, signOut } from './auth-store.ts';
import { can } from './can.ts';
import { notify } from './notify.ts';

/**
 * Route guards of section 2, run as router middleware before any loader of the guarded routes,
 * so a protected loader never fires for a visitor who may not see the page.
 */

/** Not signed in: to the login page, which brings the user back here afterwards. */
export const requireUser: MiddlewareFunction = async ({ request }) => {
  const user = await authReady();
  if (!user) {
    const url = new URL(request.url);
    throw redirect(paths.login.getHref(url.pathname + url.search));
  }
};

/** Buying and selling pages: an account that may not do that goes to Home, and is told why. */
export const requireCapability =
  (capability: 'buy' | 'sell'): MiddlewareFunction =>
  async () => {
    const user = await authReady();
    if (can(user, capability)) return;
    notify.error(capabilityTexts.pageFor[capability]);
    throw redirect(paths.home.getHref());
  };

/** Admin pages: anyone else is signed out and sent Home with the guard message. */
export const requireAdmin: MiddlewareFunction = async () => {
  const user = await authReady();
  if (can(user, 'admin')) return;
  await signOut().catch((error: unknown) => console.error(error));
  notify.error(messages.guardLogout);
  throw redirect(paths.home.getHref());
};
