import { mailTexts, texts } from '@furniture/contract';

/**
 * The one layout of the marketplace's e-mails, as HTML and plain text. A domain's template fills it
 * with plain words (never HTML: every value is escaped here), and links to the app by path, which
 * becomes an address under PUBLIC_URL:
 *
 *   renderMail({
 *     heading: 'Anna offered $90 for your sofa',
 *     paragraphs: ['The offer stands for 48 hours.'],
 *     image: { url: product.productImage, alt: product.productName },
 *     action: { label: 'Answer the offer', path: `/dashboard/conversations/${id}` },
 *     unsubscribePath: `/unsubscribe?token=${token}`,
 *   }, config.publicUrl);
 */
export interface MailContent {
  heading: string;
  paragraphs: readonly string[];
  /** A picture under the heading, e.g. the product's photo: an http(s) address, or a path of the app. */
  image?: { url: string; alt: string };
  /** The button: where in the app it leads (a path such as `/dashboard/my-orders`). */
  action?: { label: string; path: string };
  /** A path of the app that unsubscribes the addressee without signing in; shown in the footer. */
  unsubscribePath?: string;
}

export interface RenderedMail {
  html: string;
  text: string;
  /** The unsubscribe address, for the List-Unsubscribe header. */
  unsubscribeUrl?: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/** An address of the app: a path (`/…`) under PUBLIC_URL, never another site. */
export function appUrl(path: string, publicUrl: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`An e-mail links to the app by path; got "${path}"`);
  return `${publicUrl}${path}`;
}

/** An image address: http(s), or a path of the app. */
function imageUrl(url: string, publicUrl: string): string {
  if (url.startsWith('/')) return appUrl(url, publicUrl);
  const protocol = new URL(url).protocol;
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`An e-mail image must be an http(s) address; got "${url}"`);
  return url;
}

const COLORS = { text: '#1f2937', muted: '#6b7280', brand: '#4f46e5', background: '#f3f4f6' };
const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

export function renderMail(content: MailContent, publicUrl: string): RenderedMail {
  const action = content.action && { label: content.action.label, url: appUrl(content.action.path, publicUrl) };
  const image = content.image && { url: imageUrl(content.image.url, publicUrl), alt: content.image.alt };
  const unsubscribeUrl = content.unsubscribePath ? appUrl(content.unsubscribePath, publicUrl) : undefined;

  const rows = [
    `<p style="margin:0 0 24px;font-size:14px;font-weight:600;color:${COLORS.brand}">${escapeHtml(texts.brand)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${COLORS.text}">${escapeHtml(content.heading)}</h1>`,
    image &&
      `<img src="${escapeHtml(image.url)}" alt="${escapeHtml(image.alt)}" width="520" style="display:block;width:100%;max-width:520px;height:auto;margin:0 0 16px;border-radius:8px">`,
    ...content.paragraphs.map((paragraph) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:${COLORS.text}">${escapeHtml(paragraph)}</p>`),
    action &&
      `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${COLORS.brand};color:#ffffff;font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(action.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:${COLORS.muted}">${escapeHtml(mailTexts.linkFallback)}<br><a href="${escapeHtml(action.url)}" style="color:${COLORS.muted};word-break:break-all">${escapeHtml(action.url)}</a></p>`,
  ].filter(Boolean);
  const footer = [
    escapeHtml(mailTexts.footer),
    unsubscribeUrl && `<a href="${escapeHtml(unsubscribeUrl)}" style="color:${COLORS.muted}">${escapeHtml(mailTexts.unsubscribe)}</a>`,
  ].filter(Boolean);

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.heading)}</title></head>
<body style="margin:0;padding:0;background:${COLORS.background};${FONT}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${COLORS.background}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px"><tr><td style="padding:32px 28px">
${rows.join('\n')}
</td></tr></table>
<p style="max-width:600px;margin:16px auto 0;font-size:12px;line-height:1.5;color:${COLORS.muted}">${footer.join('<br>')}</p>
</td></tr></table>
</body>
</html>
`;

  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '-- ',
    texts.brand,
    mailTexts.footer,
    ...(unsubscribeUrl ? [`${mailTexts.unsubscribe}: ${unsubscribeUrl}`] : []),
    '',
  ].join('\n');

  return { html, text, unsubscribeUrl };
}
