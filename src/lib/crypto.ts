// Token hashing, secret encryption at rest and signatures. Every key is derived from the one master secret
// (config.secretKey) with HKDF and a purpose label, so one leaked subkey does not expose the others.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** An opaque 256-bit token, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Tokens are stored only as SHA-256 hashes: a database leak reveals no usable token. One-shot `hash` (Node ≥
 * 20.12): every request hashes its bearer token, and a Hash object per call costs more.
 */
export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

export function sha256Base64Url(text: string): string {
  return hash('sha256', text, 'base64url');
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

/**
 * The master keys, SECRET_KEY first, then each SECRET_KEY_PREVIOUS (docs/secret-rotation.md): what is signed or
 * sealed now uses the first; what is checked or opened tries them in order, so whatever a previous key made keeps
 * working until that key is dropped.
 */
export interface MasterKeys {
  readonly secretKey: Buffer;
  readonly previousSecretKeys: readonly Buffer[];
}

/** The keys of `keys` in the order they are tried: SECRET_KEY, then each previous key. */
export function verificationKeys(keys: MasterKeys): readonly Buffer[] {
  return [keys.secretKey, ...keys.previousSecretKeys];
}

/** The signing subkeys derived so far, per master key (the config's buffers, alive as long as the process). */
const signingKeys = new WeakMap<Buffer, Map<string, Buffer>>();

/**
 * `deriveKey` for a signature purpose, kept once derived: HKDF costs ~35 µs, and a page of alert results signs 24
 * listing links under one purpose. Only the few fixed purposes of `purposeSignature` are kept.
 */
function signingKey(master: Buffer, purpose: string): Buffer {
  let byPurpose = signingKeys.get(master);
  if (!byPurpose) signingKeys.set(master, (byPurpose = new Map()));
  let key = byPurpose.get(purpose);
  if (!key) byPurpose.set(purpose, (key = deriveKey(master, purpose)));
  return key;
}

/**
 * HMAC-SHA256 (hex) signatures for one purpose: made under SECRET_KEY, accepted under it or any previous key, so a
 * link written before a rotation keeps working. `length` keeps that many hex characters (a shorter URL).
 */
export function purposeSignature(keys: MasterKeys, purpose: string, length = 64) {
  const sign = (master: Buffer, data: string) => hmacHex(signingKey(master, purpose), data).slice(0, length);
  return {
    sign: (data: string): string => sign(keys.secretKey, data),
    verifies: (data: string, given: string): boolean =>
      verificationKeys(keys).some((master) => safeEqual(given.toLowerCase(), sign(master, data))),
  };
}

/**
 * A short, stable name for a master key that reveals nothing of it (8 hex characters of a subkey), so an operator
 * can tell which configured key a message means, or that two processes run with the same key.
 */
export function keyFingerprint(master: Buffer): string {
  return deriveKey(master, 'key-fingerprint').subarray(0, 4).toString('hex');
}

const ENCRYPTION_VERSION = 'v1';

/**
 * AES-256-GCM for secrets at rest. Output: `v1.<iv>.<tag>.<ciphertext>` (base64url parts), sealed under SECRET_KEY.
 * Opening tries SECRET_KEY, then each previous key: the format names no key, so values stored before rotation
 * existed read unchanged, and a process of an older version can still read what a newer one wrote (GCM's tag tells
 * a wrong key from the right one).
 */
export class SecretBox {
  /** The `secret-box` subkeys of SECRET_KEY and of each previous key, in the order they are tried. */
  private readonly keys: readonly Buffer[];

  constructor(master: Buffer, previous: readonly Buffer[] = []) {
    this.keys = [master, ...previous].map((key) => deriveKey(key, 'secret-box'));
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0]!, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [ENCRYPTION_VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const opened = this.open(sealed);
    if (!opened) throw new Error('No configured key decrypts this value (SECRET_KEY, SECRET_KEY_PREVIOUS)');
    return opened.plaintext;
  }

  /** Which key opens the value: 0 is SECRET_KEY, n the n-th previous key, -1 none (or not a sealed value). */
  keyIndexOf(sealed: string): number {
    return this.open(sealed, false)?.key ?? -1;
  }

  /** The value sealed under SECRET_KEY, the same plaintext inside; null when it already is. Throws when no key opens it. */
  reseal(sealed: string): string | null {
    const opened = this.open(sealed);
    if (!opened) throw new Error('No configured key decrypts this value (SECRET_KEY, SECRET_KEY_PREVIOUS)');
    return opened.key === 0 ? null : this.encrypt(opened.plaintext);
  }

  private open(sealed: string, strict = true): { plaintext: string; key: number } | null {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== ENCRYPTION_VERSION || !iv || !tag || ciphertext === undefined) {
      if (strict) throw new Error('Unrecognised encrypted value');
      return null;
    }
    for (const [index, key] of this.keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
        return { plaintext: plain.toString('utf8'), key: index };
      } catch {
        // the tag does not hold under this key: try the next
      }
    }
    return null;
  }
}
