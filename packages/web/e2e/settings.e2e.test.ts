import { accountTexts, messages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { users } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, loadedWidth, logIn, photo } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const openSession = setupSessions(chromium, market);
const { settings } = accountTexts;

describe('the settings page', () => {
  it.each([
    ['a desktop', { width: 1280, height: 900 }],
    ['a phone', { width: 375, height: 740 }],
  ])('changes the name, photo, phone and town on %s', async (_, viewport) => {
    const user = await createUser(market.db, { role: 'buyer', name: 'Before Name' });
    const { page, pageErrors } = await openSession(viewport);
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: settings.title, level: 1 }).waitFor();
    const name = page.getByLabel(settings.name, { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Before Name');
    await checkPage(page, `settings-${viewport.width}`);

    await name.fill('After Name');
    await page.getByLabel(settings.photo).setInputFiles(await photo('me.jpg', { r: 30, g: 140, b: 90 }));
    await page.getByLabel(settings.phone, { exact: true }).fill('01711 223344');
    await page.getByLabel(settings.location, { exact: true }).fill('Mirpur');
    await page.getByRole('button', { name: settings.saveProfile }).click();
    await expectText(page, messages.imageUploadSucceeded);
    await expectText(page, settings.profileSaved);

    const [saved] = await market.db.select().from(users).where(eq(users.id, user.id));
    expect(saved).toMatchObject({ name: 'After Name', phone: '01711 223344', location: 'Mirpur' });
    expect(saved!.image).not.toBe(user.image);
    await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'After Name' }).first())).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it('lists where the account is signed in and signs out the other browser', async () => {
    const user = await createUser(market.db);
    const other = await openSession();
    await logIn(other.page, user.email, DEFAULT_TEST_PASSWORD);
    const { page } = await openSession();
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    const sessions = page.getByRole('region', { name: settings.sessions });
    await sessions.getByText(settings.thisDevice).waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: settings.signOutOthers }).click();
    await expectText(page, accountTexts.server.otherSessionsEnded);
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);

    await other.page.goto('/dashboard');
    await other.page.waitForURL((url) => url.pathname === '/login');
  });

  it('changes the password with the current one', async () => {
    const user = await createUser(market.db);
    const { page } = await openSession();
    await logIn(page, user.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/settings');
    await page.getByLabel(settings.currentPassword, { exact: true }).fill('Wrong1234');
    await page.getByLabel(settings.newPassword, { exact: true }).fill('Changed789');
    await page.getByRole('button', { name: settings.savePassword }).click();
    await expectText(page, accountTexts.server.wrongCurrentPassword);
    await page.getByLabel(settings.currentPassword, { exact: true }).fill(DEFAULT_TEST_PASSWORD);
    await page.getByRole('button', { name: settings.savePassword }).click();
    await expectText(page, accountTexts.server.passwordChanged);
    const [saved] = await market.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(saved!.passwordHash).not.toBe(user.passwordHash);
  });
});
