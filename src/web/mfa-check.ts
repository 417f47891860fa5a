// The TOTP step of the web sign-in, delegated to the MFA module's verifier: replay protection and the
// per-user and per-IP attempt budgets live there, once for the API and the pages.
import type { Deps } from '../platform/deps.js';
import { AppError } from '../errors.js';
import { checkUserTotp } from '../modules/mfa/index.js';

export type MfaOutcome = { kind: 'ok' } | { kind: 'invalid' } | { kind: 'blocked'; retryAfterSeconds: number };

export async function checkTotp(deps: Deps, userId: string, code: string, ip: string): Promise<MfaOutcome> {
  try {
    await checkUserTotp(deps, { userId, ip }, code);
    return { kind: 'ok' };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'TooManyRequests')
      return { kind: 'blocked', retryAfterSeconds: Number(error.headers?.['retry-after'] ?? 60) };
    // 400 wrong or reused code; 409 MFA switched off meanwhile (the step page then moves on by itself)
    if (error.code === 'Validation' || error.code === 'Conflict') return { kind: 'invalid' };
    throw error;
  }
}
