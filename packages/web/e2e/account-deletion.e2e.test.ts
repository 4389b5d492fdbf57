import fs from 'node:fs';
import { accountDataTexts, accountTexts, serverMessages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { users } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectText, logIn, storedToken, submitLogin } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const openSession = setupSessions(chromium, market);
const { settings, server } = accountDataTexts;

describe('leaving the marketplace from Settings', () => {
  it('downloads the account’s data, then deletes the account on a phone; it can no longer sign in', async () => {
    const user = await createUser(market.db, { role: 'seller', name: 'Leaving Person' });
    const { page, pageErrors } = await openSession({ width: 375, height: 740 });
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);

    // The former address of the e-mail preferences opens them in Settings.
    await page.goto('/dashboard/notificationSettings');
    await expectPath(page, '/dashboard/settings');
    await page.getByRole('region', { name: accountTexts.settings.emailPreferences }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: settings.exportAction }).click()]);
    expect(download.suggestedFilename()).toMatch(/^used-furniture-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    expect(exported.account).toMatchObject({ _id: user.id, name: 'Leaving Person', email: user.email });

    await page.getByRole('button', { name: settings.deleteAction }).click();
    const dialog = page.getByRole('dialog', { name: settings.dialogTitle });
    await dialog.waitFor();
    await checkPage(page, 'delete-account-375');
    // An account without a passkey is not offered one.
    expect(await dialog.getByRole('button', { name: settings.confirmWithPasskey }).count()).toBe(0);
    await dialog.getByLabel(settings.password, { exact: true }).fill('Wrong1234');
    await dialog.getByRole('button', { name: settings.confirmWithPassword }).click();
    await expectText(page, server.wrongPassword);
    await dialog.getByLabel(settings.password, { exact: true }).fill(DEFAULT_TEST_PASSWORD);
    await dialog.getByRole('button', { name: settings.confirmWithPassword }).click();

    await expectPath(page, '/');
    await expectText(page, settings.deleted);
    await expect.poll(() => storedToken(page)).toBeNull();
    const [row] = await market.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(row!.email).not.toBe(user.email);

    await page.goto('/login');
    await submitLogin(page, user.email, DEFAULT_TEST_PASSWORD);
    await expectText(page, serverMessages.accounts.wrongCredentials);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(pageErrors).toEqual([]);
  });
});
