import { accountTexts, messages } from '@furniture/contract';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { mailedLink } from './support/mail.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectSignedIn, expectText, logIn, submitLogin } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const openSession = setupSessions(chromium, market);

describe('forgetting a password', () => {
  it.each([
    ['a desktop', { width: 1280, height: 900 }],
    ['a phone', { width: 375, height: 740 }],
  ])('leads from Login through the e-mailed link to a new password, signed in, on %s', async (_, viewport) => {
    const user = await createUser(market.db, { role: 'buyer' });
    // Signed in elsewhere with the old password: the reset ends that session.
    const elsewhere = await openSession();
    await logIn(elsewhere.page, user.email, DEFAULT_TEST_PASSWORD);

    const { page, pageErrors } = await openSession(viewport);
    await page.goto('/login');
    await page.getByRole('link', { name: accountTexts.forgot.link }).click();
    await expectPath(page, '/forgot-password');
    await page.getByRole('heading', { name: accountTexts.forgot.title }).waitFor();
    await checkPage(page, `forgot-password-${viewport.width}`);
    await page.getByLabel(accountTexts.forgot.email, { exact: true }).fill(user.email);
    await page.getByRole('button', { name: accountTexts.forgot.send }).click();
    await page.getByRole('status').filter({ hasText: accountTexts.forgot.sent }).waitFor();

    await page.goto(await mailedLink(market, user.email, accountTexts.mail.resetSubject, '/reset-password'));
    await page.getByRole('heading', { name: accountTexts.reset.title }).waitFor();
    await checkPage(page, `reset-password-${viewport.width}`);
    const password = page.getByLabel(accountTexts.reset.password, { exact: true });
    await password.fill('weak');
    await page.getByRole('button', { name: accountTexts.reset.save }).click();
    await expectText(page, messages.passwordTooShort);
    await password.fill('NewSecret456');
    await page.getByRole('button', { name: accountTexts.reset.save }).click();
    await expectText(page, accountTexts.reset.done);
    await expectPath(page, '/');
    await expectSignedIn(page);

    // The other browser's session has ended: its next call to the API finds it signed out.
    await elsewhere.page.goto('/dashboard');
    await expectPath(elsewhere.page, '/login');
    await submitLogin(elsewhere.page, user.email, DEFAULT_TEST_PASSWORD);
    await expectText(elsewhere.page, 'Wrong e-mail or password.');
    await submitLogin(elsewhere.page, user.email, 'NewSecret456');
    await expectSignedIn(elsewhere.page);
    expect(pageErrors).toEqual([]);
  });

  it('says so when the link was already used', async () => {
    const user = await createUser(market.db);
    const { page } = await openSession();
    await page.goto('/forgot-password');
    await page.getByLabel(accountTexts.forgot.email, { exact: true }).fill(user.email);
    await page.getByRole('button', { name: accountTexts.forgot.send }).click();
    await page.getByRole('status').filter({ hasText: accountTexts.forgot.sent }).waitFor();
    const link = await mailedLink(market, user.email, accountTexts.mail.resetSubject, '/reset-password');
    for (const attempt of [1, 2]) {
      await page.goto(link);
      await page.getByLabel(accountTexts.reset.password, { exact: true }).fill(`NewSecret45${attempt}`);
      await page.getByRole('button', { name: accountTexts.reset.save }).click();
      if (attempt === 1) await expectPath(page, '/');
    }
    await expectText(page, accountTexts.server.linkUsed);
    await page.getByRole('link', { name: accountTexts.reset.askAgain }).click();
    await expectPath(page, '/forgot-password');
  });
});
