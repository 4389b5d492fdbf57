import { accountTexts } from '@furniture/contract';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { errorMessage } from './notify.ts';

/** The browser's passkey calls, loaded when first used: most visits never make one. */
async function passkeyBrowser() {
  const browser = await import('@simplewebauthn/browser');
  if (!browser.browserSupportsWebAuthn()) throw new Error(accountTexts.passkey.unsupported);
  return browser;
}

/** Has the device make a passkey with the server's options (the browser shows its own window). */
export async function makePasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON) {
  return (await passkeyBrowser()).startRegistration({ optionsJSON });
}

/** Has the device answer the server's sign-in challenge with a passkey it holds. */
export async function answerWithPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON) {
  return (await passkeyBrowser()).startAuthentication({ optionsJSON });
}

/** What to tell the person when a passkey call failed: closing the browser's window is no error of theirs. */
export function passkeyFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return accountTexts.passkey.cancelled;
  return errorMessage(error);
}
