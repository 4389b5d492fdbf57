import { labels, messages, secondStepTexts, texts, trustWebTexts, uiTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { users } from '../../server/src/db/schema/index.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { confirmDelete, expectPath, expectText, loadedWidth, logIn, notAnImage, setUpAuthenticatorApp, photo, textColor } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

const admin = { email: 'admin@example.com', password: DEFAULT_TEST_PASSWORD };
const seller = { email: 'pending.seller@example.com', name: 'Pending Seller' };
const buyer = { email: 'leaving.buyer@example.com', name: 'Leaving Buyer' };
const suspendedSeller = { email: 'suspended.seller@example.com', name: 'Suspended Seller' };
const futureAdmin = { email: 'future.admin@example.com', password: DEFAULT_TEST_PASSWORD };
const armchair = 'Leather armchair';

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  await createUser(market.db, { ...admin, role: 'admin', name: 'Ada Admin' });
  const pending = await createUser(market.db, { ...seller, role: 'seller', verified: false, image });
  await createUser(market.db, { ...buyer, role: 'buyer', image });
  const suspended = await createUser(market.db, { ...suspendedSeller, role: 'seller', verified: true, image });
  await market.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
  await createUser(market.db, { ...futureAdmin, role: 'buyer', name: 'Future Admin' });
  const category = await createCategory(market.db, { categoryName: 'Armchairs', image });
  await createProduct(market.db, { categoryId: category.id, sellerId: pending.id }, { productName: armchair, advertisement: true, productImage: image });
});

afterAll(async () => {
  await session?.close();
});

const tick = () => session.page.getByTestId('product-card').filter({ hasText: armchair }).getByTestId('seller').getByRole('img');

// One admin's session: each step starts where the previous one left the browser.
describe('an admin', () => {
  it('signs in to the admin dashboard with its four pages', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, admin.email, admin.password);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: texts.welcomeAdmin }).waitFor();
    expect(await page.getByTestId('profile-header').innerText()).toContain('Ada Admin (admin)');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    for (const link of [labels.dashboardMenu.allBuyers, labels.dashboardMenu.allSellers, labels.dashboardMenu.addCategory, labels.dashboardMenu.addAdmin]) {
      await menu.getByRole('link', { name: link }).waitFor();
    }
    await checkPage(page, 'dashboard-admin');
  });

  it('verifies a seller, and the tick on the seller’s products turns to verified; a suspended seller is marked', async () => {
    const { page } = session;
    await page.goto('/');
    await tick().waitFor();
    expect(await tick().getAttribute('aria-label')).toBe('Seller not verified');
    const colorBefore = await textColor(tick());

    await page.goto('/dashboard/allSellers');
    await page.getByRole('heading', { name: texts.allSellersTitle }).waitFor();
    const row = page.getByRole('row').filter({ hasText: seller.email });
    await row.getByText(labels.userStatus.pending, { exact: true }).waitFor();
    expect(await row.getByText(trustWebTexts.accountSuspendedBadge, { exact: true }).count()).toBe(0);
    await page.getByRole('row').filter({ hasText: suspendedSeller.email }).getByText(trustWebTexts.accountSuspendedBadge, { exact: true }).waitFor();
    await row.getByRole('button', { name: `Verify ${seller.email}` }).click();
    await expectText(page, messages.userVerified(seller.email));
    await row.getByText(labels.userStatus.verified, { exact: true }).waitFor();
    // A verified account offers to take the verification back instead.
    await row.getByRole('button', { name: uiTexts.users.unverify }).waitFor();
    await checkPage(page, 'dashboard-all-sellers');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.home }).first().click();
    await expect.poll(() => tick().getAttribute('aria-label')).toBe('Verified seller');
    expect(await textColor(tick())).not.toBe(colorBefore);
    expect(session.pageErrors).toEqual([]);
  });

  it('deletes a buyer', async () => {
    const { page } = session;
    await page.goto('/dashboard/allBuyers');
    await page.getByRole('heading', { name: texts.allBuyersTitle }).waitFor();
    const row = page.getByRole('row').filter({ hasText: buyer.email });
    await row.getByText(labels.userStatus.pending, { exact: true }).waitFor();
    await checkPage(page, 'dashboard-all-buyers');
    await row.getByRole('button', { name: `${labels.table.delete} ${buyer.email}` }).click();
    await confirmDelete(page, buyer.email);
    await expectText(page, messages.userDeleted(buyer.email));
    await row.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('row').filter({ hasText: futureAdmin.email }).count()).toBe(1);
  });

  it('adds a category with an image, which then shows on the categories page', async () => {
    const { page } = session;
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: labels.dashboardMenu.addCategory }).click();
    await expectPath(page, '/dashboard/addCategory');
    await page.getByRole('button', { name: labels.dashboardMenu.addCategory }).click();
    await expectText(page, 'Category name is required');
    await expectText(page, 'Photo is required');
    await page.getByLabel('Category Name').fill('Wardrobes');
    await page.getByLabel('Description').fill('Tall storage with doors');
    // A wrong file is refused as soon as it is chosen; a right one is previewed.
    await page.getByLabel('Category Image').setInputFiles(notAnImage);
    await expectText(page, uiTexts.imageFile.wrongType);
    await page.getByLabel('Category Image').setInputFiles(await photo('wardrobe.jpg', { r: 60, g: 90, b: 140 }));
    await expect.poll(() => loadedWidth(page.getByRole('img', { name: uiTexts.imageFile.preview }))).toBeGreaterThan(0);
    expect(await page.getByText(uiTexts.imageFile.wrongType).count()).toBe(0);
    await checkPage(page, 'dashboard-add-category');
    await page.getByRole('button', { name: labels.dashboardMenu.addCategory }).click();
    await expectText(page, messages.imageUploadSucceeded);
    await expectText(page, 'Category Wardrobes added');
    expect(await page.getByLabel('Category Name').inputValue()).toBe('');

    await page.goto('/categories');
    await page.getByRole('heading', { name: 'Wardrobes' }).waitFor();
    expect(session.pageErrors).toEqual([]);
  });

  it('makes a new admin, who then reaches the admin dashboard', async () => {
    const { page } = session;
    await page.goto('/dashboard/addAdmin');
    await page.getByRole('heading', { name: texts.makeAdminTitle }).waitFor();
    const submit = page.getByRole('button', { name: texts.makeAdminTitle });
    await submit.click();
    await expectText(page, 'Email is required');
    await page.getByLabel(labels.login.email).fill(futureAdmin.email);
    await checkPage(page, 'dashboard-add-admin');
    // Admin rights are asked for first: Cancel gives none.
    await submit.click();
    const confirm = page.getByRole('dialog', { name: uiTexts.confirmMakeAdmin.title(futureAdmin.email) });
    await confirm.getByText(uiTexts.confirmMakeAdmin.body).waitFor();
    await checkPage(page, 'dashboard-add-admin-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: uiTexts.confirmMakeAdmin.cancel }).click();
    await confirm.waitFor({ state: 'hidden' });
    const [untouched] = await market.db.select({ role: users.role }).from(users).where(eq(users.email, futureAdmin.email));
    expect(untouched!.role).not.toBe('admin');
    await submit.click();
    await confirm.getByRole('button', { name: uiTexts.confirmMakeAdmin.confirm }).click();
    await expectText(page, `${futureAdmin.email} is now an admin`);
    expect(session.pageErrors).toEqual([]);

    const promoted = await openSession(chromium.browser, market.url);
    try {
      await logIn(promoted.page, futureAdmin.email, futureAdmin.password);
      // A new admin sets up two-step sign-in before the admin pages (decision 38).
      await promoted.page.goto('/dashboard/allSellers');
      await expectText(promoted.page, secondStepTexts.settings.adminNeeded);
      await setUpAuthenticatorApp(promoted.page, futureAdmin.email);
      await promoted.page.goto('/dashboard/allSellers');
      await promoted.page.getByRole('heading', { name: texts.allSellersTitle }).waitFor();
      await promoted.page.goto('/dashboard');
      await promoted.page.getByRole('heading', { name: texts.welcomeAdmin }).waitFor();
      expect(promoted.pageErrors).toEqual([]);
    } finally {
      await promoted.close();
    }
  });

  it('finds a seller by a part of the name, and takes back the verification after a dialog naming them', async () => {
    const { page } = session;
    await page.goto('/dashboard/allSellers');
    await page.getByRole('heading', { name: texts.allSellersTitle }).waitFor();
    await page.getByLabel(uiTexts.users.search).fill('PENDING sel');
    await expect.poll(() => page.getByRole('row').filter({ hasText: suspendedSeller.email }).count()).toBe(0);
    const row = page.getByRole('row').filter({ hasText: seller.email });
    await row.getByText(labels.userStatus.verified, { exact: true }).waitFor();

    await row.getByRole('button', { name: uiTexts.users.unverify }).click();
    const confirm = page.getByRole('dialog', { name: uiTexts.confirmUnverify.title(seller.name, seller.email) });
    await confirm.getByText(uiTexts.confirmUnverify.body).waitFor();
    await checkPage(page, 'dashboard-unverify-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: uiTexts.confirmUnverify.confirm }).click();
    await expectText(page, `${seller.email} is no longer verified`);
    await row.getByText(labels.userStatus.pending, { exact: true }).waitFor();
    const [taken] = await market.db.select({ verified: users.verified }).from(users).where(eq(users.email, seller.email));
    expect(taken!.verified).toBe(false);

    await page.getByLabel(uiTexts.users.search).fill('nobody-has-this');
    await expectText(page, uiTexts.users.noMatch('nobody-has-this'));
    expect(session.pageErrors).toEqual([]);
  });

  it('removes another admin’s rights after a dialog naming them', async () => {
    const { page } = session;
    await page.goto('/dashboard/addAdmin');
    await page.getByRole('heading', { name: uiTexts.users.adminsTitle }).waitFor();
    const row = page.getByRole('row').filter({ hasText: futureAdmin.email });
    await row.getByRole('button', { name: uiTexts.users.removeAdmin }).click();
    const confirm = page.getByRole('dialog', { name: uiTexts.confirmRemoveAdmin.title('Future Admin', futureAdmin.email) });
    await confirm.getByText(uiTexts.confirmRemoveAdmin.body).waitFor();
    await confirm.getByRole('button', { name: uiTexts.confirmRemoveAdmin.confirm }).click();
    await expectText(page, `${futureAdmin.email} is no longer an admin`);
    await row.waitFor({ state: 'detached' });
    const [demoted] = await market.db.select({ role: users.role }).from(users).where(eq(users.email, futureAdmin.email));
    expect(demoted!.role).toBe('buyer');
    await checkPage(page, 'dashboard-admins');
    expect(session.pageErrors).toEqual([]);
  });
});
