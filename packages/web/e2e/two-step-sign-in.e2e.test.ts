import { labels, secondStepTexts, texts } from '@furniture/contract';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { enterSecondStepCode, expectPath, expectSignedIn, expectText, logIn, setUpAuthenticatorApp, submitLogin } from './support/ui.ts';

/** An admin sets up two-step sign-in in Settings, then signs in with password and code (decision 38). */

const market = setupMarketplace();
const chromium = setupBrowser();
const openSession = setupSessions(chromium, market);
const { settings, login } = secondStepTexts;

describe('two-step sign-in', () => {
  it.each([
    ['a desktop', { width: 1280, height: 900 }],
    ['a phone', { width: 375, height: 740 }],
  ])('is set up by an admin sent to Settings, and then asked for at sign-in, on %s', async (_, viewport) => {
    const admin = await createUser(market.db, { role: 'admin', name: 'Ada Admin', totpSecret: null });
    const { page, pageErrors } = await openSession(viewport);
    await logIn(page, admin.email, DEFAULT_TEST_PASSWORD);

    // The first admin page sends the admin to set it up.
    await page.goto('/dashboard/allSellers');
    await expectPath(page, '/dashboard/settings');
    await expectText(page, settings.adminNeeded);
    await page.getByRole('heading', { name: settings.title }).waitFor();
    await checkPage(page, `two-step-set-up-${viewport.width}`);

    const { secret, recoveryCodes } = await setUpAuthenticatorApp(page, admin.email);
    expect(recoveryCodes).toHaveLength(10);
    await checkPage(page, `two-step-recovery-codes-${viewport.width}`);
    await page.getByRole('button', { name: settings.recoveryKept }).click();
    await expectText(page, settings.on);

    // The session that set it up used a code: the admin pages open at once.
    await page.goto('/dashboard/allSellers');
    await page.getByRole('heading', { name: texts.allSellersTitle }).waitFor();

    await page.getByRole('button', { name: labels.nav.logOut }).click();
    await page.getByRole('link', { name: labels.nav.logIn }).first().waitFor();
    await page.goto('/login?redirectTo=%2Fdashboard%2FallSellers');
    await submitLogin(page, admin.email, DEFAULT_TEST_PASSWORD);
    await page.getByRole('heading', { name: login.heading }).waitFor();
    await checkPage(page, `two-step-code-${viewport.width}`);
    await page.getByLabel(login.code, { exact: true }).fill('000000' === recoveryCodes[0] ? '111111' : '000000');
    await page.getByRole('button', { name: login.continue, exact: true }).click();
    await expectText(page, secondStepTexts.server.wrongCode);
    await enterSecondStepCode(page, admin.email, secret);
    await expectSignedIn(page);
    await expectPath(page, '/dashboard/allSellers');
    await page.getByRole('heading', { name: texts.allSellersTitle }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('signs in with a recovery code instead of the app', async () => {
    const admin = await createUser(market.db, { role: 'admin', totpSecret: null });
    const { page } = await openSession();
    await logIn(page, admin.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    const { recoveryCodes } = await setUpAuthenticatorApp(page, admin.email);
    await page.getByRole('button', { name: labels.nav.logOut }).click();
    await page.getByRole('link', { name: labels.nav.logIn }).first().waitFor();
    await page.goto('/login');
    await submitLogin(page, admin.email, DEFAULT_TEST_PASSWORD);
    await page.getByRole('button', { name: login.useRecoveryCode }).click();
    await page.getByLabel(login.recoveryCode, { exact: true }).fill(recoveryCodes[3]!);
    await page.getByRole('button', { name: login.continue, exact: true }).click();
    await expectSignedIn(page);
  });
});
