// Photos a page names on other hosts (a listing's cover image on the MLS's CDN) are fetched by the render job
// through the outbound client — SSRF guard, deadline, size cap, redirects checked hop by hop — and inlined as
// data: URLs. The renderer itself still loads nothing from the network but this server's files and the font
// hosts (decisions §18); a photo that cannot be fetched stays a remote URL, which the renderer blocks and the
// instance's render_note reports.
import { FONT_HOSTS } from './url-policy.js';
import { OutboundError, type OutboundHttp } from '../lib/outbound.js';

/** `src="…"` / `src='…'` attributes and CSS `url(…)` naming an http(s) address. */
const REMOTE_URL = /(\bsrc\s*=\s*["']|url\(\s*["']?)(https?:\/\/[^"')\s<>]+)/gi;
export const MAX_REMOTE_IMAGES = 20;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']);
const FETCH_TIMEOUT_MS = 15_000;

export interface InlinedPage {
  html: string;
  /** Remote addresses left as they were, with the reason. */
  failed: { url: string; reason: string }[];
}

/** The text of an attribute value as the browser reads it (the sanitiser writes `&` as `&amp;`). */
function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'");
}

export async function inlineRemoteImages(
  outbound: OutboundHttp,
  html: string,
  ownOrigin: string,
): Promise<InlinedPage> {
  const own = new URL(ownOrigin).origin;
  const written = new Set<string>();
  for (const match of html.matchAll(REMOTE_URL)) {
    const url = URL.canParse(decodeEntities(match[2]!)) ? new URL(decodeEntities(match[2]!)) : null;
    if (url && url.origin !== own && !FONT_HOSTS.includes(url.hostname)) written.add(match[2]!);
  }
  const wanted = [...written].slice(0, MAX_REMOTE_IMAGES);
  const failed: InlinedPage['failed'] = [...written]
    .slice(MAX_REMOTE_IMAGES)
    .map((url) => ({ url, reason: `more than ${MAX_REMOTE_IMAGES} remote images` }));
  const inlined = new Map<string, string>();
  await Promise.all(
    wanted.map(async (text) => {
      const result = await fetchImage(outbound, decodeEntities(text));
      if (typeof result === 'string') failed.push({ url: text, reason: result });
      else inlined.set(text, `data:${result.mime};base64,${result.bytes.toString('base64')}`);
    }),
  );
  return {
    html: html.replace(REMOTE_URL, (whole, prefix: string, url: string) =>
      inlined.has(url) ? `${prefix}${inlined.get(url)}` : whole,
    ),
    failed,
  };
}

/** The image, or why not. */
async function fetchImage(outbound: OutboundHttp, url: string): Promise<{ mime: string; bytes: Buffer } | string> {
  try {
    const res = await outbound.request({
      url,
      followRedirects: true,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxResponseBytes: MAX_IMAGE_BYTES,
      purpose: 'render',
      headers: { accept: [...IMAGE_TYPES].join(', ') },
    });
    if (res.status !== 200) return `answered ${res.status}`;
    const mime = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!IMAGE_TYPES.has(mime)) return `not an image (${mime || 'no content type'})`;
    return { mime, bytes: res.body };
  } catch (error) {
    if (error instanceof OutboundError) return `${error.kind}: ${error.message}`;
    throw error;
  }
}
