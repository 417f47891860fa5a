// Tracking and one-click unsubscribe for marketing mail (decisions §15, docs/mail.md). Every link is signed with
// an HMAC (key derived from the master secret for this purpose only) over what it does and the ledger row it
// belongs to: a forged or altered link is refused, and a click link redirects only to the URL it was signed for —
// never an open redirect. Links are signed under SECRET_KEY and checked under it and each SECRET_KEY_PREVIOUS, so
// mail sent before a rotation of SECRET_KEY keeps working while its key is configured (docs/secret-rotation.md).
import { createHmac } from 'node:crypto';
import { deriveKey, safeEqual } from '../lib/crypto.js';
import { isUuid } from '../lib/uuid.js';

export type LinkPurpose = 'open' | 'click' | 'unsubscribe';

const signers = new WeakMap<Buffer, Buffer>();

function linkKey(master: Buffer): Buffer {
  let key = signers.get(master);
  if (!key) {
    key = deriveKey(master, 'mail-links');
    signers.set(master, key);
  }
  return key;
}

function signature(master: Buffer, purpose: LinkPurpose, message: string, extra: string): string {
  // 128 bits of the HMAC are plenty for a link and keep the URL short.
  return createHmac('sha256', linkKey(master))
    .update(`${purpose}\n${message.toLowerCase()}\n${extra}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** `<ledger id>.<signature>`: the path segment of a tracking link. */
export function linkToken(master: Buffer, purpose: LinkPurpose, message: string, extra = ''): string {
  return `${message}.${signature(master, purpose, message, extra)}`;
}

/**
 * The ledger id a token names when its signature holds for `purpose` (and `extra`, the click's URL) under one of
 * `masters` (SECRET_KEY, then the previous keys), else null.
 */
export function verifyLinkToken(
  masters: readonly Buffer[],
  purpose: LinkPurpose,
  token: string,
  extra = '',
): string | null {
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const message = token.slice(0, dot);
  if (!isUuid(message)) return null;
  const given = token.slice(dot + 1);
  return masters.some((master) => safeEqual(given, signature(master, purpose, message, extra)))
    ? message.toLowerCase()
    : null;
}

export interface TrackingUrls {
  open: string;
  unsubscribe: string;
  click(url: string): string;
}

export function trackingUrls(master: Buffer, baseUrl: string, message: string): TrackingUrls {
  const at = (path: string) => new URL(path, baseUrl).toString();
  return {
    open: at(`/mail/open/${linkToken(master, 'open', message)}`),
    unsubscribe: at(`/mail/unsubscribe/${linkToken(master, 'unsubscribe', message)}`),
    click: (url) => `${at(`/mail/click/${linkToken(master, 'click', message, url)}`)}?url=${encodeURIComponent(url)}`,
  };
}

/** Only web links are tracked (and only they may be the target of a redirect). */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  '#38': '&',
  '#34': '"',
  '#39': "'",
  '#x26': '&',
  '#x27': "'",
};
const decodeAttribute = (value: string) =>
  value.replace(
    /&(amp|quot|apos|lt|gt|#38|#34|#39|#x26|#x27);/gi,
    (all, name: string) => ENTITIES[name.toLowerCase()] ?? all,
  );
const encodeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** `href` of `<a>` (quoted or not), for rewriting. */
const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

/**
 * The html with every http(s) link of an `<a>` rewritten through the signed click redirect and the open pixel
 * appended (before `</body>` when there is one). Other links (mailto:, tel:, #anchors) stay as they are.
 */
export function trackHtml(html: string, urls: TrackingUrls): string {
  const rewritten = html.replace(ANCHOR_HREF, (all, head: string, dq?: string, sq?: string, bare?: string) => {
    const original = decodeAttribute((dq ?? sq ?? bare ?? '').trim());
    if (!isWebUrl(original)) return all;
    return `${head}"${encodeAttribute(urls.click(original))}"`;
  });
  const pixel = `<img src="${encodeAttribute(urls.open)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const body = /<\/body\s*>/i.exec(rewritten);
  return body ? `${rewritten.slice(0, body.index)}${pixel}${rewritten.slice(body.index)}` : `${rewritten}\n${pixel}`;
}

/**
 * RFC 2369 + RFC 8058 headers: the one-click link (when `urls` are given: a message to one recipient) and a mailto
 * to a person as the fallback. Without the link, no `List-Unsubscribe-Post` (RFC 8058 requires the link).
 */
export function unsubscribeHeaders(urls: TrackingUrls | null, mailto: string | null): Record<string, string> {
  const targets = urls ? [`<${urls.unsubscribe}>`] : [];
  if (mailto) targets.push(`<mailto:${mailto}?subject=unsubscribe>`);
  if (targets.length === 0) return {};
  return {
    'List-Unsubscribe': targets.join(', '),
    ...(urls ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
  };
}

/** The 1×1 transparent GIF answered by the open pixel. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
