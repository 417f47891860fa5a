import { describe, expect, it } from 'vitest';
import { deriveKey, hashToken, keyFingerprint, purposeSignature, randomToken, safeEqual, SecretBox } from './crypto.js';

const master = Buffer.alloc(32, 7);

describe('crypto', () => {
  it('makes 256-bit URL-safe tokens and hashes them with SHA-256', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
    expect(hashToken(token)).toHaveLength(32);
    expect(hashToken(token).equals(hashToken(token))).toBe(true);
  });

  it('derives different keys for different purposes', () => {
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'b'))).toBe(false);
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'a'))).toBe(true);
  });

  it('encrypts at rest with a fresh IV and detects tampering', () => {
    const box = new SecretBox(master);
    const sealed = box.encrypt('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.encrypt('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(box.decrypt(sealed)).toBe('JBSWY3DPEHPK3PXP');
    const parts = sealed.split('.');
    const flipped = parts[3]!.startsWith('A') ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    expect(() => box.decrypt([parts[0], parts[1], parts[2], flipped].join('.'))).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).decrypt(sealed)).toThrow();
  });

  it('opens under SECRET_KEY or a previous key, seals under SECRET_KEY, and re-seals only what is not under it', () => {
    const old = new SecretBox(master);
    const sealed = old.encrypt('secret');
    const rotating = new SecretBox(Buffer.alloc(32, 8), [Buffer.alloc(32, 9), master]);
    expect(rotating.decrypt(sealed)).toBe('secret');
    expect(rotating.keyIndexOf(sealed)).toBe(2);
    const resealed = rotating.reseal(sealed)!;
    expect(rotating.keyIndexOf(resealed)).toBe(0);
    expect(new SecretBox(Buffer.alloc(32, 8)).decrypt(resealed)).toBe('secret');
    expect(rotating.reseal(resealed)).toBeNull();
    expect(() => old.decrypt(resealed)).toThrow(/No configured key/);
    expect(old.keyIndexOf('not sealed')).toBe(-1);
    expect(() => rotating.reseal(new SecretBox(Buffer.alloc(32, 1)).encrypt('x'))).toThrow();
  });

  it('names a key by a fingerprint that is stable and reveals nothing of it', () => {
    expect(keyFingerprint(master)).toMatch(/^[0-9a-f]{8}$/);
    expect(keyFingerprint(master)).toBe(keyFingerprint(Buffer.alloc(32, 7)));
    expect(keyFingerprint(master)).not.toBe(keyFingerprint(Buffer.alloc(32, 8)));
    expect(master.toString('hex')).not.toContain(keyFingerprint(master));
  });

  it('compares in constant time and handles different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('purposeSignature', () => {
  const old = Buffer.alloc(32, 1);
  const current = Buffer.alloc(32, 2);

  it('signs under SECRET_KEY and accepts what a previous key signed, for its own purpose and data only', () => {
    const before = purposeSignature({ secretKey: old, previousSecretKeys: [] }, 'links', 32).sign('a:b');
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    const rotated = purposeSignature({ secretKey: current, previousSecretKeys: [old] }, 'links', 32);
    expect(rotated.sign('a:b')).not.toBe(before);
    expect(rotated.verifies('a:b', before)).toBe(true);
    expect(rotated.verifies('a:c', before)).toBe(false);
    expect(
      purposeSignature({ secretKey: current, previousSecretKeys: [old] }, 'other', 32).verifies('a:b', before),
    ).toBe(false);
    expect(purposeSignature({ secretKey: current, previousSecretKeys: [] }, 'links', 32).verifies('a:b', before)).toBe(
      false,
    );
  });
});
