// Approve: re-check everything the consent page showed (the session may be old, the client or membership
// may have changed), then issue a code or an implicit token through the auth module and build the redirect.
import {
  createAuthorizationCode,
  issueImplicitIdToken,
  issueImplicitToken,
  takePending,
} from '../modules/auth/index.js';
import { authorizationRedirect } from './authorization-request.js';
import { brandChoices } from './brand-choices.js';
import { grantedScope, loadPageUser, registeredClient, type StepContext } from './steps.js';

/** The redirect to the partner, or null when the request is not ready to approve (the caller shows the current step). */
export async function approve(ctx: StepContext): Promise<string | null> {
  const { deps, session } = ctx;
  const pending = session.pending;
  if (!pending || !session.user || !pending.brand) return null;
  const user = await loadPageUser(deps, session.user);
  if (!user || (user.mfa_enabled && !session.mfaPassed)) return null;
  const client = await registeredClient(deps, pending);
  if (!client) return null;
  const choices = await brandChoices(deps.db, user.id, ctx.whiteLabel?.id ?? null);
  if (!choices.some((choice) => choice.id === pending.brand)) {
    await ctx.store.savePending(session, { ...pending, brand: null });
    return null;
  }
  const scope = grantedScope(client, pending);
  if (scope === null)
    return authorizationRedirect(pending.redirectUri, pending.responseType, {
      error: 'invalid_scope',
      error_description: 'This client may no longer ask for the scope it asked for',
      state: pending.state,
    });
  if (!(await takePending(deps.db, session.id, pending.id, deps.clock.now()))) return null;

  // The user passed TOTP in this session, or has no MFA: the tokens start MFA-validated (spec §5.7).
  const grant = {
    client: client.id,
    user: user.id,
    brand: pending.brand,
    mfaValidated: !user.mfa_enabled || session.mfaPassed,
    scope,
  };
  // What an OpenID Connect id_token tells of this sign-in (docs/openid-connect.md): when the password was given
  // here, and whether a TOTP code followed.
  const signIn = {
    authTime: session.signedInAt,
    amr: user.mfa_enabled && session.mfaPassed ? ['pwd', 'otp'] : ['pwd'],
  };
  if (pending.responseType === 'code') {
    const code = await createAuthorizationCode(deps.db, deps.clock, {
      ...grant,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      // The nonce to echo in the id_token of the exchange.
      nonce: pending.nonce ?? null,
      ...signIn,
    });
    return authorizationRedirect(pending.redirectUri, 'code', { code, brand: pending.brand, state: pending.state });
  }
  if (pending.responseType === 'token') {
    const token = await issueImplicitToken(deps.db, deps.clock, grant);
    return authorizationRedirect(pending.redirectUri, 'token', {
      ...accessTokenParams(token),
      brand: pending.brand,
      state: pending.state,
    });
  }
  // OpenID Connect implicit (OIDC Core §3.2.2.5): the id_token, and with `id_token token` an access token too.
  const token =
    pending.responseType === 'id_token token'
      ? await issueImplicitToken(deps.db, deps.clock, { ...grant, ...signIn })
      : null;
  const idToken = await issueImplicitIdToken(
    deps,
    { client: client.id, user: user.id, scope: pending.scope ?? null, nonce: pending.nonce ?? null, ...signIn },
    token?.access_token ?? null,
  );
  if (!idToken) return null;
  return authorizationRedirect(pending.redirectUri, pending.responseType, {
    ...(token ? accessTokenParams(token) : {}),
    id_token: idToken,
    brand: pending.brand,
    state: pending.state,
  });
}

function accessTokenParams(token: { access_token: string; expires_in: number; token_type: string }) {
  return { access_token: token.access_token, expires_in: token.expires_in, token_type: token.token_type };
}
