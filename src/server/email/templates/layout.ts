import { cleanOneLine } from '../../../domain/text.ts';
import { BUSINESS } from '../../../content/business.ts';

// What every e-mail shares: the HTML frame, escaping, the plain-text joiner and the small pieces
// several messages repeat. Plain text is written first (it is what every client can show); the
// HTML part carries the same words, with every value that came from a person escaped.

/** Text placed into e-mail HTML: every customer-supplied value goes through this. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The plain-text part: one line per entry. */
export function text(lines: readonly string[]): string {
  return lines.join('\n');
}

/** The HTML part: the body's markup in the one frame every message uses. */
export function layout(body: string): string {
  return `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
${body}
</body></html>`;
}

/** A section heading inside a message. */
export function heading(title: string): string {
  return `<h2 style="font-size:18px">${escapeHtml(title)}</h2>`;
}

/** Typed text with its line breaks kept. */
export function paragraphs(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, '<br>');
}

/** Customer text in a subject line or greeting stays on one line, without controls or bidi overrides. */
export function oneLine(value: string): string {
  return cleanOneLine(value);
}

/** 's' unless there is exactly one. */
export function plural(count: number): string {
  return count === 1 ? '' : 's';
}

/** How to reach the business, one line each. */
export function supportLines(): string[] {
  return [`Phone: ${BUSINESS.phone}`, `E-mail: ${BUSINESS.email}`, `Hours: ${BUSINESS.supportHours.text}`];
}

/** The tracking page, resolved against the site as the magic links and the invite's URL are. */
export function trackProjectUrl(siteUrl: string): string {
  return new URL('/track-project', siteUrl).href;
}

/** The close of the customer's payment and proof e-mails: how to ask, then the business's name. */
export const CUSTOMER_SIGN_OFF: readonly string[] = [
  `Questions? Call ${BUSINESS.phone} or e-mail ${BUSINESS.email} (${BUSINESS.supportHours.text}).`,
  '',
  BUSINESS.name,
];

/** The line of a receipt that carries an invoice's PDF. */
export function invoiceAttachedLine(invoiceNumber: string): string {
  return `Your invoice ${invoiceNumber} is attached as a PDF; it can also be downloaded from your tracking page.`;
}

/** The closing line of the installation e-mails (the reminder and a new date). */
export const INSTALLATION_QUESTIONS = `Questions or a change of plan? Call ${BUSINESS.phone} or reply to this e-mail.`;

/**
 * A plain-text message as HTML, for the short notes that have no layout of their own: blank lines
 * start a paragraph, lines stay lines. Only the links the server put in (`links`) become clickable:
 * an address or instruction a customer typed may hold a URL, and it must not arrive in anyone's
 * inbox as a link that looks like ours.
 */
export function textAsHtml(plain: string, links: readonly string[] = []): string {
  return layout(textBlocksAsHtml(plain, links));
}

/** textAsHtml's paragraphs without the frame, for a message that puts something between them. */
export function textBlocksAsHtml(plain: string, links: readonly string[] = []): string {
  // One pass, longest first, so a link that starts with another (…/track-project?t=…) stays whole.
  const known = [...new Set(links.map(escapeHtml))].sort((a, b) => b.length - a.length);
  const pattern = known.length ? new RegExp(known.map((url) => url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g') : null;
  const linkify = (html: string) => (pattern ? html.replace(pattern, (url) => `<a href="${url}">${url}</a>`) : html);
  return plain
    .split(/\n{2,}/)
    .map((block) => `<p>${linkify(escapeHtml(block)).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
