// Signed, expiring file URLs (decisions §18): `/files/:id/:variant?expires=<epoch s>&signature=<hex>`, the
// signature an HMAC-SHA256 (key derived from the master secret for this purpose only) of id, variant and expiry.
// A changed id, variant or expiry, or a link past its expiry, is refused. Links are signed with SECRET_KEY's subkey
// and checked against every configured key's, so a link made before a rotation of SECRET_KEY works until it expires.
import { deriveKey, hmacHex, safeEqual } from '../lib/crypto.js';

export const FILE_URL_TTL_SECONDS = 24 * 60 * 60;
export type FileVariant = 'file' | 'preview';

export class FileSigner {
  /** The subkeys of SECRET_KEY, then of each previous key: the first signs, any checks. */
  private readonly keys: readonly Buffer[];

  constructor(master: Buffer, previous: readonly Buffer[] = []) {
    this.keys = [master, ...previous].map((key) => deriveKey(key, 'file-urls'));
  }

  private signature(id: string, variant: FileVariant, expires: number, key = this.keys[0]!): string {
    return hmacHex(key, `${id.toLowerCase()}:${variant}:${expires}`);
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
    const given = signature.toLowerCase();
    if (!this.keys.some((key) => safeEqual(given, this.signature(id, variant, expires, key)))) return 'invalid';
    return expires * 1000 <= now.getTime() ? 'expired' : 'ok';
  }
}
