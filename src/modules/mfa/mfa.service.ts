// TOTP multi-factor authentication (spec §3 state table, decisions §4). The secret is encrypted at rest; a code
// is accepted at most once; wrong codes count against a per-user attempt budget; validation is a property of the
// token family (the login), so refreshed pairs inherit it.
import QRCode from 'qrcode';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { attemptKey, ACCOUNT_POLICY, AttemptLimiter, IP_POLICY, type AttemptKey } from '../../platform/attempts.js';
import { markFamilyMfaValidated } from '../auth/index.js';
import type { UserRecord } from '../users/users.schemas.js';
import { loadUserRecord } from '../users/index.js';
import {
  burnRecoveryCode,
  clearMfa,
  consumeStep,
  deleteRecoveryCodes,
  enableMfa,
  findMfaState,
  replaceRecoveryCodes,
  storePendingSecret,
} from './mfa.repository.js';
import { looksLikeRecoveryCode, newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import { matchingStep, newTotpSecret, totpUri } from './totp.js';

/** The login the request belongs to. */
export interface MfaCaller {
  userId: string;
  family: string;
  /** Brand a partner token is bound to (shown as the record's brand). */
  boundBrand: string | null;
  /** The caller's IP: wrong codes count against it too, as wrong passwords do. */
  ip: string;
}

/**
 * MFA is an account-wide setting; a brand-bound (partner) token acts only in its brand, so it may not set up,
 * enable or remove it: a partner enrolling its own secret would lock the user out of every other login.
 */
function requireAccountLogin(caller: MfaCaller): void {
  if (caller.boundBrand)
    throw errors.forbidden('MFA settings need a first-party login: a partner token acts only in its brand');
}

/** Starts (or restarts) set-up: a new secret, not yet enabled. 409 once MFA is enabled. */
export async function setupMfa(deps: Deps, caller: MfaCaller): Promise<UserRecord> {
  requireAccountLogin(caller);
  const state = await mfaState(deps, caller.userId);
  if (state.mfa_enabled)
    throw errors.conflict('MFA is already enabled: disable it with DELETE /users/self/mfa before setting it up again');
  const secret = newTotpSecret();
  await storePendingSecret(deps.db, caller.userId, deps.secrets.encrypt(secret), deps.clock.now());
  const mfaUrl = totpUri(deps.config.appName, state.email, secret);
  const mfaQrCode = await QRCode.toDataURL(mfaUrl);
  return { ...(await userRecord(deps, caller)), mfa_url: mfaUrl, mfa_qr_code: mfaQrCode };
}

/**
 * Proves the authenticator works: enables MFA, marks the current login validated and hands out the recovery
 * codes (in this response only: the database keeps their hashes).
 */
export async function verifyMfa(deps: Deps, caller: MfaCaller, token: string): Promise<UserRecord> {
  requireAccountLogin(caller);
  const state = await mfaState(deps, caller.userId);
  if (state.mfa_enabled)
    throw errors.conflict('MFA is already enabled: use POST /users/self/mfa/validate to validate a new login');
  if (!state.mfa_secret) throw errors.conflict('MFA is not set up: call POST /users/self/mfa/setup first');
  await checkCode(deps, caller, state.mfa_secret, token, 'totp');
  const codes = newRecoveryCodes();
  await deps.db.transaction().execute(async (trx) => {
    await enableMfa(trx, caller.userId, deps.clock.now());
    await replaceRecoveryCodes(trx, caller.userId, codes.map(recoveryCodeHash), deps.clock.now());
    await markFamilyMfaValidated(trx, caller.family);
  });
  return { ...(await userRecord(deps, caller)), mfa_recovery_codes: codes };
}

/** Replaces every recovery code with a new set; needs a current authenticator code (not a recovery code). */
export async function regenerateRecoveryCodes(deps: Deps, caller: MfaCaller, token: string): Promise<UserRecord> {
  requireAccountLogin(caller);
  const state = await mfaState(deps, caller.userId);
  if (!state.mfa_enabled || !state.mfa_secret)
    throw errors.conflict('MFA is not enabled for this user: there are no recovery codes to replace');
  await checkCode(deps, caller, state.mfa_secret, token, 'totp');
  const codes = newRecoveryCodes();
  await deps.db.transaction().execute(async (trx) => {
    await replaceRecoveryCodes(trx, caller.userId, codes.map(recoveryCodeHash), deps.clock.now());
  });
  return { ...(await userRecord(deps, caller)), mfa_recovery_codes: codes };
}

/** Validates the current login (token family) of a user with MFA enabled. */
export async function validateMfa(deps: Deps, caller: MfaCaller, token: string): Promise<void> {
  await checkUserTotp(deps, caller, token);
  await markFamilyMfaValidated(deps.db, caller.family);
}

/**
 * The code check alone, for sign-ins that have no token family yet (the web pages): 409 when MFA is not
 * enabled, 400 for a wrong or reused code, 429 when the user's budget is spent. An unused recovery code passes
 * too, and is burned.
 */
export async function checkUserTotp(deps: Deps, who: CodeChecker, token: string): Promise<void> {
  const state = await mfaState(deps, who.userId);
  if (!state.mfa_enabled || !state.mfa_secret)
    throw errors.conflict('MFA is not enabled for this user: nothing to validate');
  await checkCode(deps, who, state.mfa_secret, token, 'totp-or-recovery');
}

/**
 * Removes MFA (enabled, or a set-up never verified) and the recovery codes; needs a current code either way. A
 * recovery code will do, so that a user who lost the authenticator can sign in, remove MFA and set it up anew.
 */
export async function disableMfa(deps: Deps, caller: MfaCaller, token: string): Promise<void> {
  requireAccountLogin(caller);
  const state = await mfaState(deps, caller.userId);
  if (!state.mfa_secret) throw errors.conflict('MFA is not set up for this user: nothing to remove');
  await checkCode(deps, caller, state.mfa_secret, token, 'totp-or-recovery');
  await deps.db.transaction().execute(async (trx) => {
    await clearMfa(trx, caller.userId, deps.clock.now());
    await deleteRecoveryCodes(trx, caller.userId);
  });
}

/** Whose code is checked, and from where. */
export type CodeChecker = Pick<MfaCaller, 'userId' | 'ip'>;

/** Which codes a check takes: set-up and regeneration prove the authenticator itself, so only its codes. */
type AcceptedCodes = 'totp' | 'totp-or-recovery';

/**
 * 429 when the user's or the IP's budget is spent; 400 (attributes.token) for a wrong or already used code.
 * The IP key is the one the password checks use: someone holding many stolen passwords cannot spray codes
 * across the accounts from one address without hitting it. Recovery codes spend the same budget.
 */
async function checkCode(
  deps: Deps,
  { userId, ip }: CodeChecker,
  encryptedSecret: string,
  token: string,
  accepted: AcceptedCodes,
): Promise<void> {
  const keys: AttemptKey[] = [attemptKey('mfa', userId, ACCOUNT_POLICY), attemptKey('ip', ip, IP_POLICY)];
  const limiter = new AttemptLimiter(deps.database, deps.clock);
  // Counted as a failure up front (refunded on success), so parallel guesses cannot outrun the limit.
  await limiter.claim(keys);
  if (accepted === 'totp-or-recovery' && looksLikeRecoveryCode(token)) {
    // An unknown and a used code get the same answer, and both stay counted.
    if (!(await burnRecoveryCode(deps.db, userId, recoveryCodeHash(token), deps.clock.now())))
      throw errors.invalidField('token', 'is not a valid authenticator or recovery code');
    return limiter.refund(keys);
  }
  const step = matchingStep(deps.secrets.decrypt(encryptedSecret), token.trim(), deps.clock.now());
  if (step === null) throw errors.invalidField('token', 'is not a valid authenticator code');
  // A replay is as suspicious as a wrong code: it stays counted too.
  if (!(await consumeStep(deps.db, userId, step)))
    throw errors.invalidField('token', 'has already been used: wait for the next code');
  await limiter.refund(keys);
}

async function mfaState(deps: Deps, userId: string) {
  const state = await findMfaState(deps.db, userId);
  if (!state) throw errors.notFound('User');
  return state;
}

function userRecord(deps: Deps, caller: MfaCaller): Promise<UserRecord> {
  return loadUserRecord(deps, caller.userId, caller.boundBrand ? { brand: caller.boundBrand } : {});
}
