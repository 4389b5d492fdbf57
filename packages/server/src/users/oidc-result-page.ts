import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { messages, serverMessages, type OidcPopupResult } from '@furniture/contract';

/**
 * The script of the page that ends the sign-in popup. It reads the result from a JSON element,
 * so its text never changes and the Content-Security-Policy can allow exactly it by its hash.
 * The message goes to the opener only if the opener is this same origin.
 */
const SCRIPT = `(function () {
  var result = JSON.parse(document.getElementById('oidc-result').textContent);
  if (window.opener && !window.opener.closed) {
    window.opener.postMessage(result, location.origin);
    window.close();
  } else if (result.ok) {
    location.replace('/');
  }
})();`;

const SCRIPT_HASH = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

export const RESULT_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${SCRIPT_HASH}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** JSON that cannot close the script element it sits in. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export function renderResultPage(result: Omit<OidcPopupResult, 'type'>): string {
  const message: OidcPopupResult = { type: 'oidc-result', ...result };
  const { google } = serverMessages;
  const text = result.message ?? (result.ok ? messages.signInSuccess : google.failed);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(google.pageTitle)}</title>
</head>
<body>
<p>${escapeHtml(text)}</p>
<p><a href="/">${escapeHtml(google.backToMarketplace)}</a></p>
<script type="application/json" id="oidc-result">${scriptSafeJson(message)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Answers the popup's page. No opener isolation here: the page must reach the window that
 * opened the popup, which the web app's pages allow with same-origin-allow-popups.
 */
export function sendResultPage(reply: FastifyReply, status: number, result: Omit<OidcPopupResult, 'type'>) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', RESULT_PAGE_CSP)
    .header('cross-origin-opener-policy', 'unsafe-none')
    .header('referrer-policy', 'no-referrer')
    .send(renderResultPage(result));
}
