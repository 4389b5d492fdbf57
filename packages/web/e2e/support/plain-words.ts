import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** A field's code name (camelCase: "maxPrice", "doorHeight") as a word of running text. */
const CODE_NAME = /(?<![\w./@#-])[a-z]+[A-Z][A-Za-z]*(?![\w/@-])/g;
/** How a validator speaks ("Invalid input: expected number, received string"). */
const VALIDATOR_WORDING = /expected\b.{1,40}\breceived\b|Invalid input/gi;

/** The words a person reads that only a developer would write, in the text given. */
export function developerWords(text: string): string[] {
  return [...(text.match(CODE_NAME) ?? []), ...(text.match(VALIDATOR_WORDING) ?? [])];
}

/**
 * Fails when the visible text of the page, toasts and open dialogs included, names a field by its
 * code name or speaks a validator's language. Every screen the browser tests check goes through here.
 */
export async function expectPlainWords(page: Page, label: string) {
  const text = (await page.evaluate('document.body.innerText')) as string;
  expect(developerWords(text), `developer words on ${label}`).toEqual([]);
}
