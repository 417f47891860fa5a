// RFC 6238 TOTP as decisions §4 fixes it: SHA1, 6 digits, 30 s steps, one step of drift either side.
// Time comes from the caller (the injected Clock), so tests can move it.
import { Secret, TOTP } from 'otpauth';

const SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const DRIFT_STEPS = 1;
const SECRET_BYTES = 20; // 160 bits, the RFC 4226 recommendation

/** A fresh secret, base32 (the form authenticator apps read). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The otpauth:// URI that authenticator apps import (also what the QR code encodes). */
export function totpUri(issuer: string, accountName: string, secretBase32: string): string {
  return new TOTP({ issuer, label: accountName, secret: Secret.fromBase32(secretBase32), ...SETTINGS }).toString();
}

/**
 * The time step the code belongs to, or null when it matches none within the drift window. The step (not just
 * "valid") is what replay protection needs: a code is accepted only for a step later than the last one used.
 */
export function matchingStep(secretBase32: string, token: string, now: Date): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = now.getTime();
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secretBase32),
    ...SETTINGS,
    timestamp,
    window: DRIFT_STEPS,
  });
  return delta === null ? null : TOTP.counter({ period: SETTINGS.period, timestamp }) + delta;
}
