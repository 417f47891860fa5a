// Signed, expiring file URLs (decisions §18): `/files/:id/:variant?expires=<epoch s>&signature=<hex>`, the
// signature an HMAC-SHA256 (key derived from the master secret for this purpose only) of id, variant and expiry.
// A changed id, variant or expiry, or a link past its expiry, is refused.
import { deriveKey, hmacHex, safeEqual } from '../lib/crypto.js';

export const FILE_URL_TTL_SECONDS = 24 * 60 * 60;
export type FileVariant = 'file' | 'preview';

export class FileSigner {
  private readonly key: Buffer;

  constructor(master: Buffer) {
    this.key = deriveKey(master, 'file-urls');
  }

  private signature(id: string, variant: FileVariant, expires: number): string {
    return hmacHex(this.key, `${id.toLowerCase()}:${variant}:${expires}`);
  }

  /** A URL of the file on this server, valid until now + TTL (or unsigned for a public file). */
  url(baseUrl: string, id: string, variant: FileVariant, now: Date, options: { public?: boolean } = {}): string {
    const url = new URL(`/files/${id}/${variant}`, baseUrl);
    if (!options.public) {
      const expires = Math.floor(now.getTime() / 1000) + FILE_URL_TTL_SECONDS;
      url.searchParams.set('expires', String(expires));
      url.searchParams.set('signature', this.signature(id, variant, expires));
    }
    return url.toString();
  }

  /** 'ok', or why the link is refused. */
  check(
    id: string,
    variant: FileVariant,
    expires: number | undefined,
    signature: string | undefined,
    now: Date,
  ): 'ok' | 'invalid' | 'expired' {
    if (expires === undefined || signature === undefined) return 'invalid';
    if (!safeEqual(signature.toLowerCase(), this.signature(id, variant, expires))) return 'invalid';
    return expires * 1000 <= now.getTime() ? 'expired' : 'ok';
  }
}
