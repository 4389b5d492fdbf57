import { capabilityTexts, messages, secondStepTexts, type DataResponse, type SecondStepStatus } from '@furniture/contract';
import { api } from './api-client.ts';
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
export const requireAdmin: MiddlewareFunction = async ({ request }) => {
  const user = await authReady();
  if (can(user, 'admin')) return requireAdminSecondStep(new URL(request.url));
  await signOut().catch((error: unknown) => console.error(error));
  notify.error(messages.guardLogout);
  throw redirect(paths.home.getHref());
};

/**
 * An admin whose session lacks the second step (decision 38) sets it up in Settings, or signs in
 * again with it, and is told why.
 */
async function requireAdminSecondStep(url: URL) {
  const { data } = await api<DataResponse<SecondStepStatus>>('/me/second-step');
  if (data.adminNeeds === 'nothing') return;
  if (data.adminNeeds === 'set-up') {
    notify.error(secondStepTexts.server.adminSetUp);
    throw redirect(`${paths.dashboard.settings.getHref()}#two-step-sign-in`);
  }
  notify.error(secondStepTexts.server.adminSignInAgain);
  await signOut().catch((error: unknown) => console.error(error));
  throw redirect(paths.login.getHref(url.pathname + url.search));
}
