import { IMAGE_MAX_BYTES, labels, secondStepTexts, TOKEN_STORAGE_KEY, uiTexts } from '@furniture/contract';
import { generate } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import sharp from 'sharp';
import { TEST_TOTP_SECRET } from '../../../server/src/demo/factories.ts';

/** A real JPEG for file inputs, made on the spot. */
export async function photo(name = 'photo.jpg', background = { r: 150, g: 110, b: 70 }) {
  const buffer = await sharp({ create: { width: 640, height: 480, channels: 3, background } }).jpeg().toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** A file a photo field must refuse for its type. */
export const notAnImage = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') };

/** A "JPEG" one byte over the upload limit, refused for its size before it is sent. */
export const oversizedImage = () => ({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(IMAGE_MAX_BYTES + 1) });

export async function signUp(
  page: Page,
  account: { name: string; email: string; password: string; role: 'buyer' | 'seller' },
) {
  await page.goto('/signup');
  await page.getByLabel(labels.signup.name, { exact: true }).fill(account.name);
  await page.getByLabel(labels.signup.email, { exact: true }).fill(account.email);
  await page.getByLabel(labels.signup.password, { exact: true }).fill(account.password);
  // On the page as served, a click before the app has loaded is held and made once it has: the
  // radio button is checked then, not at once.
  const role = page.getByLabel(account.role === 'buyer' ? labels.signup.buyer : labels.signup.seller, { exact: true });
  await role.click();
  await expect.poll(() => role.isChecked()).toBe(true);
  await page.getByLabel(labels.signup.photo).setInputFiles(await photo());
  await page.getByRole('button', { name: labels.signup.signUp }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expectSignedIn(page);
}

/**
 * Signs in with e-mail and password, and, when the account asks for it (the factories give admins
 * an authenticator app with TEST_TOTP_SECRET), a code from the app.
 */
export async function logIn(page: Page, email: string, password: string, totpSecret = TEST_TOTP_SECRET) {
  await page.goto('/login');
  await submitLogin(page, email, password);
  const codeField = page.getByLabel(secondStepTexts.login.code, { exact: true });
  await page.getByRole('button', { name: labels.nav.logOut }).or(codeField).waitFor();
  if (await codeField.isVisible()) await enterSecondStepCode(page, email, totpSecret);
  await expectSignedIn(page);
}

/** The last time step whose code each account was given: a code is accepted once. */
const lastSteps = new Map<string, number>();

/**
 * Enters the code of the authenticator app with this secret for the sign-in on the page: the
 * earliest code the server still accepts (a step either way of now) that this account has not used,
 * so an account can sign in three times in one step; but not the previous step's code in a step's
 * last seconds, which the server would stop accepting before it arrives.
 */
export async function enterSecondStepCode(page: Page, email: string, secret: string) {
  await page.getByLabel(secondStepTexts.login.code, { exact: true }).fill(await unusedCode(email, secret));
  await page.getByRole('button', { name: secondStepTexts.login.continue, exact: true }).click();
}

async function unusedCode(email: string, secret: string): Promise<string> {
  const steps = Date.now() / 30_000;
  const current = Math.floor(steps);
  const earliest = steps - current < 0.9 ? current - 1 : current;
  const step = Math.max(earliest, (lastSteps.get(email) ?? -Infinity) + 1);
  if (step > current + 1) throw new Error(`${email} has used every code the server accepts now: sign it in once and keep the session`);
  lastSteps.set(email, step);
  return generate({ secret, epoch: step * 30 });
}

/**
 * Sets up an authenticator app in the Settings part that is open, as a person would: reads the
 * key off the page and enters a code made from it. Answers the key and the recovery codes shown.
 */
export async function setUpAuthenticatorApp(page: Page, email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { settings } = secondStepTexts;
  await page.getByRole('button', { name: settings.start, exact: true }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  await page.getByLabel(settings.code, { exact: true }).fill(await unusedCode(email, secret));
  await page.getByRole('button', { name: settings.turnOn, exact: true }).click();
  await page.getByRole('heading', { name: settings.recoveryTitle }).waitFor();
  const recoveryCodes = await page.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts();
  return { secret, recoveryCodes };
}

/** Fills and sends the login form of the page that is open. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel(labels.login.email, { exact: true }).fill(email);
  await page.getByLabel(labels.login.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.login.signIn, exact: true }).click();
}

/** The access token the app keeps in local storage. */
export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(`localStorage.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)})`);
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

/** Width in pixels of a loaded image; 0 while it is loading or when it failed to load. */
export async function loadedWidth(image: Locator): Promise<number> {
  return image.evaluate((element) => {
    const img = element as unknown as { complete: boolean; naturalWidth: number };
    return img.complete ? img.naturalWidth : 0;
  });
}

/** The computed text colour of an element, as the browser reports it. */
export async function textColor(element: Locator): Promise<string> {
  return element.evaluate((node) => {
    const view = globalThis as unknown as { getComputedStyle(target: unknown): { color: string } };
    return view.getComputedStyle(node).color;
  });
}

/** Whether a CSS colour (rgb() or oklch(), as Chromium reports them) is a red. */
export function isRed(color: string): boolean {
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
  if (rgb) {
    const [r, g, b] = rgb.slice(1).map(Number) as [number, number, number];
    return r > 120 && r > 2 * g && r > 2 * b;
  }
  const oklch = /^oklch\(([\d.]+)%?\s+([\d.]+)\s+([\d.]+)/.exec(color);
  if (oklch) {
    const chroma = Number(oklch[2]);
    const hue = Number(oklch[3]);
    return chroma > 0.1 && (hue < 40 || hue > 345);
  }
  return false;
}

/** Whether the element has focus. */
export async function isFocused(element: Locator): Promise<boolean> {
  return element.evaluate((node) => (node as unknown as { matches(selector: string): boolean }).matches(':focus'));
}

/** The element that a toggle button names in its aria-controls. */
export async function controlledBy(page: Page, toggle: Locator): Promise<Locator> {
  const id = await toggle.getAttribute('aria-controls');
  expect(id, 'aria-controls of the toggle').toBeTruthy();
  return page.locator(`[id="${id}"]`);
}

/** The label or text of the element that has focus; null when nothing on the page has it. */
export async function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(`(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    return element.getAttribute('aria-label') ?? element.textContent.trim();
  })()`);
}

/** Presses Tab `times` times and returns where focus went each time (see focusedName). */
export async function tabStops(page: Page, times: number): Promise<(string | null)[]> {
  const stops: (string | null)[] = [];
  for (let press = 0; press < times; press += 1) {
    await page.keyboard.press('Tab');
    stops.push(await focusedName(page));
  }
  return stops;
}

/** Answers the confirmation a Delete button asks for: the dialog names what goes, and Delete confirms. */
export async function confirmDelete(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: uiTexts.confirmDelete.title(name) });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: labels.table.delete, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * How far the page can be scrolled sideways: 0 when nothing reaches past the viewport's right edge.
 * (The document's scrollWidth alone misleads here: the scrollbar's reserved room makes it read
 * below the viewport's width.)
 */
export const sidewaysOverflow = (page: Page): Promise<number> =>
  page.evaluate(`(() => {
    window.scrollTo(100000, window.scrollY);
    const reach = Math.max(window.scrollX, document.documentElement.scrollWidth - window.innerWidth);
    window.scrollTo(0, window.scrollY);
    return reach;
  })()`) as Promise<number>;

/**
 * The tables of the page that reach past the right edge of the page's main part or of the window,
 * each as its first column's header: what a person cannot see without scrolling inside the page.
 */
export const cutOffTables = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const main = document.querySelector('main');
    if (!main) return [];
    const edge = Math.min(main.getBoundingClientRect().right, window.innerWidth) + 1;
    return [...main.querySelectorAll('table')]
      .filter((table) => table.getBoundingClientRect().right > edge)
      .map((table) => table.querySelector('th')?.textContent ?? 'a table');
  })()`) as Promise<string[]>;
