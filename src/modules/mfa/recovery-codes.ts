// Recovery codes: what they look like and how a typed one is read back. A code is 80 random bits in 16 base32
// letters, shown in groups of four (`abcd-efgh-ijkl-mnop`); it is never a 6-digit number, so one field takes
// either an authenticator code or a recovery code.
import { randomBytes } from 'node:crypto';
import { hashToken } from '../../lib/crypto.js';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const LETTERS = 16; // 16 × 5 bits = 80 bits

/** A fresh set of codes, in the form shown to the user. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

function newRecoveryCode(): string {
  const bytes = randomBytes(LETTERS);
  // 256 is a multiple of 32: taking each byte modulo 32 keeps the letters uniform.
  const letters = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return letters.match(/.{4}/g)!.join('-');
}

/** Whether a typed token is meant as a recovery code rather than an authenticator code. */
export function looksLikeRecoveryCode(token: string): boolean {
  return !/^\d{6}$/.test(token.trim());
}

/** Whether a typed text has a recovery code's form (16 base32 letters; any case, spaces and dashes aside). */
export function hasRecoveryCodeForm(typed: string): boolean {
  return /^[a-z2-7]{16}$/i.test(typed.replace(/[\s-]/g, ''));
}

/** The stored form: SHA-256 of the code without case, spaces or dashes, so a code typed loosely still matches. */
export function recoveryCodeHash(token: string): Buffer {
  return hashToken(token.toLowerCase().replace(/[\s-]/g, ''));
}
