import { labels, messages, texts } from '@furniture/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { newIssuerAccount, startOidcIssuer, type TestIssuer } from '../../server/test/oidc-issuer.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectSignedIn, expectText, storedToken } from './support/ui.ts';

// A real OpenID Connect provider stands in for Google; the popup goes through it for real.
let issuer: TestIssuer | undefined;
const market = setupMarketplace(async (url) => {
  issuer = await startOidcIssuer({ redirectUris: [`${url}/api/auth/oidc/callback`] });
  return { oidc: { issuer: issuer.issuer, clientId: issuer.clientId, clientSecret: issuer.clientSecret } };
});
const chromium = setupBrowser();
let session: Session;

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});
afterAll(async () => {
  await issuer?.close();
});

async function signInWithGoogle() {
  const { page } = session;
  const google = page.getByRole('button', { name: labels.login.google });
  await expect.poll(() => google.isEnabled()).toBe(true);
  const [popup] = await Promise.all([page.waitForEvent('popup'), google.click()]);
  return popup;
}

/**
 * The popup closes once a whole sign-in at the issuer is done: several pages and redirects, not
 * one step. On two busy cores that took more than 20 s once, so it gets 30 s. On busy cores the
 * popup can also be closed by the time this test hears of it, and a closed page never sends
 * "close" again: waiting for it then would only run out of time.
 */
const popupClosed = (popup: Awaited<ReturnType<typeof signInWithGoogle>>) =>
  popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 30_000 });

describe('Google sign-in', () => {
  it('signs a new person up as a buyer through the popup and returns them where they came from', async () => {
    issuer!.account = newIssuerAccount({ name: 'Gita Google' });
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/dashboard/myWishes');
    await page.waitForURL((url) => url.pathname === '/login');
    const popup = await signInWithGoogle();
    await popupClosed(popup);
    await expectText(page, messages.signInSuccess);
    await expectPath(page, '/dashboard/myWishes');
    await page.getByRole('heading', { name: texts.wishListTitle }).waitFor();
    expect(await storedToken(page)).toBeTruthy();

    await page.goto('/dashboard');
    expect(await page.getByTestId('profile-header').innerText()).toContain('Gita Google (buyer)');
  });

  it('links Google to an existing account once its password is given', async () => {
    const email = 'linda.link@example.com';
    await createUser(market.db, { email, role: 'seller', name: 'Linda Link' });
    issuer!.account = newIssuerAccount({ email, name: 'Linda at Google' });
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/login');
    const popup = await signInWithGoogle();
    await popupClosed(popup);
    const password = page.getByLabel('Password of your account');
    await password.waitFor();
    await checkPage(page, 'login-link-google');

    await password.fill('Not-the-password-1');
    await page.getByRole('button', { name: 'Link Google and sign in' }).click();
    await page.getByRole('main').locator('p.text-red-700').waitFor();
    expect(await storedToken(page)).toBeNull();

    await password.fill(DEFAULT_TEST_PASSWORD);
    await page.getByRole('button', { name: 'Link Google and sign in' }).click();
    await expectText(page, messages.signInSuccess);
    await expectPath(page, '/');
    await expectSignedIn(page);
    await page.goto('/dashboard');
    expect(await page.getByTestId('profile-header').innerText()).toContain('Linda Link (seller)');
  });
});
