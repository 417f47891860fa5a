// `listing_url` and `listing_qr` of a template (issue 32 item 5; docs/templates.md, docs/print-campaigns.md): where
// a postcard sends the person who holds it. The brokerage's own page when LISTING_URL is set (the template alert
// emails follow: `{id}`, `{mls}`, `{mls_number}`), else Gable's public listing page on WEB_URL with the brand of the
// instance signed, so the page wears the brand that mailed the card. The QR code encodes exactly that URL, as a PNG
// data: URL: the renderer loads no remote address, and the template sanitiser takes data: images but not SVG ones
// (an SVG can carry script). 300 px across is 400 dpi at the postcard's 0.75 in.
import QRCode from 'qrcode';
import type { Config } from '../../config.js';
import type { MasterKeys } from '../../lib/crypto.js';
import { listingLinkUrl } from '../public-pages/index.js';

/** The QR options; a test regenerates the code with them to prove what it encodes. */
export const LISTING_QR_OPTIONS = { type: 'image/png', errorCorrectionLevel: 'M', margin: 1, width: 300 } as const;

type LinkConfig = Pick<Config, 'webUrl' | 'listingUrl'> & MasterKeys;

export async function qrDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, LISTING_QR_OPTIONS);
}

/** The variables of the first listing a template names (none without a listing). */
export async function listingLinkVariables(
  config: LinkConfig,
  listing: { id: string; mls: string; mls_number: string } | undefined,
  brand: string,
): Promise<{ listing_url?: string; listing_qr?: string }> {
  if (!listing) return {};
  const url = listingLinkUrl(config, listing, brand);
  return { listing_url: url, listing_qr: await qrDataUrl(url) };
}
