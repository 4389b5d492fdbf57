import { messages, uiTexts, type UserRole } from '@furniture/contract';
import { redirect, type MiddlewareFunction } from 'react-router';
import { paths } from '../config/paths.ts';
import { authReady, signOut } from './auth-store.ts';
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

/** Buyer and seller pages: anyone else goes to Home, and is told why. */
export const requireRole =
  (role: Exclude<UserRole, 'admin'>): MiddlewareFunction =>
  async () => {
    const user = await authReady();
    if (user?.userRole === role) return;
    notify.error(uiTexts.guards.onlyFor(role));
    throw redirect(paths.home.getHref());
  };

/** Admin pages: anyone else is signed out and sent Home with the guard message. */
export const requireAdmin: MiddlewareFunction = async () => {
  const user = await authReady();
  if (user?.userRole === 'admin') return;
  await signOut().catch((error: unknown) => console.error(error));
  notify.error(messages.guardLogout);
  throw redirect(paths.home.getHref());
};
