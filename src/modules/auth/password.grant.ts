// Password grant (first-party clients only): email + password → a new token family and the user record.
import type { Deps } from '../../platform/deps.js';
import { verifyPassword } from '../../lib/passwords.js';
import { attemptKey, ACCOUNT_POLICY, AttemptLimiter, IP_POLICY, type AttemptKey } from '../../platform/attempts.js';
import { loadUserRecord } from '../users/index.js';
import type { ClientRow } from './clients.repository.js';
import { claimAndFindLiveUserWithRowByEmail } from './login.repository.js';
import { oauthErrors } from './oauth-errors.js';
import type { TokenResponse } from './oauth.schemas.js';
import { issueNewFamily, tokenResponse } from './tokens.service.js';

export async function passwordGrant(
  deps: Deps,
  client: ClientRow,
  username: string,
  password: string,
  ip: string,
  /** Granted already (token-endpoint.service.ts): a refused scope costs no password attempt. */
  scope: string,
): Promise<TokenResponse> {
  // Unknown accounts count too, so a 429 does not reveal whether an email is registered.
  const keys: AttemptKey[] = [
    attemptKey('account', username.trim().toLowerCase(), ACCOUNT_POLICY),
    attemptKey('ip', ip, IP_POLICY),
  ];
  const limiter = new AttemptLimiter(deps.database, deps.clock);
  // Counted as a failure up front, so parallel guesses cannot all slip past the limit during the slow hash; the
  // claim and the user's read are one statement.
  const { claimedKeys, user } = await claimAndFindLiveUserWithRowByEmail(
    deps.database,
    limiter.claimValues(keys),
    username.trim(),
  );
  await limiter.settleClaim(keys, claimedKeys);

  // verifyPassword does the same work for a missing user or hash: timing does not reveal accounts.
  const valid = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !valid) throw oauthErrors.invalidGrant('Wrong email or password');

  // A new login never starts MFA-validated: with MFA enabled it must call POST /users/self/mfa/validate.
  // The claim is refunded in the same statement: it was not a failure after all. Only the account's consecutive
  // count resets (IP_POLICY.resetOnSuccess is false): resetting the IP would let one valid account launder the
  // failures of a password-spraying run.
  const tokens = await issueNewFamily(
    deps.database,
    deps.clock,
    {
      user: user.row.id,
      client: client.id,
      brand: null,
      grantType: 'password',
      mfaValidated: false,
      withRefreshToken: true,
      scope,
    },
    limiter.refundStatement(keys),
  );
  return tokenResponse(tokens, { data: await loadUserRecord(deps, user.row.id, { row: user.row }) });
}
