import { accountTexts, labels, messages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { passkeys } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { mailed } from './support/mail.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectSignedIn, expectText, logIn } from './support/ui.ts';

// A passkey belongs to a domain name, never to an address: the browser opens the site as localhost.
const market = setupMarketplace((url) => ({ publicUrl: url.replace('127.0.0.1', 'localhost') }));
const chromium = setupBrowser();
const openSession = setupSessions(chromium, {
  get url() {
    return market.config.publicUrl;
  },
});
const { settings, server } = accountTexts;

/** A platform authenticator of the kind phones and laptops have: it keeps passkeys and checks its owner. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

describe('passkeys', () => {
  it.each([
    ['a desktop', { width: 1280, height: 900 }],
    ['a phone', { width: 375, height: 740 }],
  ])('are added in Settings and sign in from Login on %s', { timeout: 60_000 }, async (_, viewport) => {
    const user = await createUser(market.db, { role: 'buyer' });
    const { page, pageErrors } = await openSession(viewport);
    await addVirtualAuthenticator(page);
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    const region = page.getByRole('region', { name: settings.passkeys });
    await region.getByText(settings.noPasskeys).waitFor();

    await region.getByRole('button', { name: settings.addPasskey }).click();
    await expectText(page, server.passkeyAdded);
    await region.getByText(settings.passkeyNeverUsed, { exact: false }).waitFor();
    expect(await mailed(market, user.email, accountTexts.mail.passkeyAddedSubject)).toContain('Chrome on Linux');
    await checkPage(page, `settings-passkey-${viewport.width}`);

    await page.getByRole('button', { name: labels.nav.logOut }).click();
    await expectPath(page, '/');
    await page.goto('/login');
    await checkPage(page, `login-passkey-${viewport.width}`);
    await page.getByRole('button', { name: accountTexts.passkey.signIn }).click();
    await expectText(page, messages.signInSuccess);
    await expectSignedIn(page);
    const [used] = await market.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(used!.lastUsedAt).not.toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('are removed in Settings', async () => {
    const user = await createUser(market.db, { role: 'buyer' });
    const { page, pageErrors } = await openSession();
    await addVirtualAuthenticator(page);
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    const region = page.getByRole('region', { name: settings.passkeys });
    await region.getByRole('button', { name: settings.addPasskey }).click();
    await expectText(page, server.passkeyAdded);
    await region.getByRole('button', { name: settings.removePasskey }).click();
    await expectText(page, server.passkeyRemoved);
    await region.getByText(settings.noPasskeys).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
