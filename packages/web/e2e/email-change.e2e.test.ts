import { accountTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { users } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { mailed, mailedLink } from './support/mail.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const openSession = setupSessions(chromium, market);
const { settings, mail } = accountTexts;

describe('changing the e-mail', () => {
  it('is asked in Settings and done by the link e-mailed to the new address', async () => {
    const user = await createUser(market.db, { role: 'buyer' });
    const newEmail = `moved-${process.pid}@example.com`;
    const { page, pageErrors } = await openSession({ width: 375, height: 740 });
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    await page.getByText(settings.currentEmail(user.email)).waitFor();
    await page.getByLabel(settings.newEmail, { exact: true }).fill(newEmail);
    await page.getByLabel(settings.passwordToConfirm, { exact: true }).fill(DEFAULT_TEST_PASSWORD);
    await page.getByRole('button', { name: settings.sendEmailLink }).click();
    await expectText(page, accountTexts.server.emailLinkSent(newEmail));
    expect(await mailed(market, user.email, mail.emailChangeAskedSubject)).toContain(newEmail);

    await page.goto(await mailedLink(market, newEmail, mail.changeEmailSubject, '/change-email'));
    await expectText(page, accountTexts.changeEmail.done);
    await checkPage(page, 'change-email-375');
    const [saved] = await market.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(saved!.email).toBe(newEmail);
    expect(pageErrors).toEqual([]);
  });
});
