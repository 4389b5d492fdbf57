import { labels } from '@furniture/contract';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import sharp from 'sharp';

/** A real JPEG for file inputs, made on the spot. */
export async function photo(name = 'photo.jpg', background = { r: 150, g: 110, b: 70 }) {
  const buffer = await sharp({ create: { width: 640, height: 480, channels: 3, background } }).jpeg().toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

export async function signUp(
  page: Page,
  account: { name: string; email: string; password: string; role: 'buyer' | 'seller' },
) {
  await page.goto('/signup');
  await page.getByLabel(labels.signup.name, { exact: true }).fill(account.name);
  await page.getByLabel(labels.signup.email, { exact: true }).fill(account.email);
  await page.getByLabel(labels.signup.password, { exact: true }).fill(account.password);
  await page.getByLabel(account.role === 'buyer' ? labels.signup.buyer : labels.signup.seller, { exact: true }).check();
  await page.getByLabel(labels.signup.photo).setInputFiles(await photo());
  await page.getByRole('button', { name: labels.signup.signUp }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expectSignedIn(page);
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(labels.login.email, { exact: true }).fill(email);
  await page.getByLabel(labels.login.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.login.signIn, exact: true }).click();
  await expectSignedIn(page);
}

export async function expectSignedIn(page: Page) {
  await page.getByRole('button', { name: labels.nav.logOut }).waitFor();
}

/** Waits until the text is on the page (a toast, a heading, a message). */
export async function expectText(page: Page, text: string) {
  await page.getByText(text, { exact: true }).first().waitFor();
}

export async function expectPath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname);
  expect(new URL(page.url()).pathname).toBe(pathname);
}
