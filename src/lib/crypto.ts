// Token hashing, secret encryption at rest and signatures. Every key is derived from the one master secret
// (config.secretKey) with HKDF and a purpose label, so one leaked subkey does not expose the others.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** An opaque 256-bit token, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes: a database leak reveals no usable token. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `gable:${purpose}`, 32));
}

/** Constant-time comparison of two strings (different lengths compare unequal). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function hmacHex(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

const ENCRYPTION_VERSION = 'v1';

/** AES-256-GCM for secrets at rest. Output: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
export class SecretBox {
  private readonly key: Buffer;

  constructor(master: Buffer) {
    this.key = deriveKey(master, 'secret-box');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [ENCRYPTION_VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== ENCRYPTION_VERSION || !iv || !tag || ciphertext === undefined)
      throw new Error('Unrecognised encrypted value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
