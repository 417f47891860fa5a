// GET /extmail/callback (decisions §12): the provider sends the browser back here with `code` and `state`.
// The state is checked first (forged, expired or replayed → an error page, nothing stored, no redirect: the
// redirect inside an unverified state cannot be trusted); then the code is exchanged, the profile read and the
// credential upserted with its tokens sealed. Failures after a verified state go back to the state's redirect
// with OAuth-style `error` parameters.
import type { Deps } from '../../platform/deps.js';
import { brandReach } from '../brands/index.js';
import { findLiveUserId } from '../users/index.js';
import { consumeStateNonce, upsertCredential } from './extmail.repository.js';
import { ProviderError } from './provider.js';
import { withParams } from './redirect.js';
import { scopeSummary } from './scopes.js';
import { callbackUrl, providerOf, stateSignerOf } from './extmail.service.js';

export interface CallbackQuery {
  state?: string | undefined;
  code?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

export type CallbackOutcome =
  | { kind: 'redirect'; location: string; credential?: string }
  | { kind: 'page'; status: 400; title: string; message: string };

const refused = (message: string): CallbackOutcome => ({
  kind: 'page',
  status: 400,
  title: 'This link cannot be used',
  message,
});

export async function completeLink(deps: Deps, query: CallbackQuery): Promise<CallbackOutcome> {
  if (!query.state)
    return refused('The address is missing its state. Start linking your mailbox again from the application.');
  const now = deps.clock.now();
  const signer = stateSignerOf(deps);
  const state = signer.verify(query.state, now);
  if (state === 'expired')
    return refused('This link has expired. Start linking your mailbox again from the application.');
  if (typeof state === 'string')
    return refused('This link is not valid. Start linking your mailbox again from the application.');
  if (!(await consumeStateNonce(deps.db, state.nonce, state.expiresAt, now))) {
    return refused('This link was already used. Start linking your mailbox again from the application.');
  }
  const back = (error: string, description: string): CallbackOutcome => ({
    kind: 'redirect',
    location: withParams(state.redirect, { error, error_description: description }),
  });
  if (query.error) {
    const code = /^[a-z_]{1,64}$/.test(query.error) ? query.error : 'access_denied';
    return back(code, (query.error_description ?? 'The mailbox was not linked').slice(0, 300));
  }
  if (!query.code) return back('invalid_request', 'The provider sent no authorization code');
  // The user may have been removed from the brand (or deleted) while at the provider.
  const reach = await brandReach(deps.db, state.user, state.brand);
  const user = await findLiveUserId(deps.db, state.user);
  if (!user || !reach?.acl) return back('access_denied', 'You no longer have access to this brand');

  const provider = providerOf(deps);
  let tokens, profile;
  try {
    tokens = await provider.exchangeCode({
      code: query.code,
      codeVerifier: state.codeVerifier,
      redirectUri: callbackUrl(deps),
    });
    profile = await provider.profile(tokens.accessToken);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.log.warn({ err: error }, 'extmail: completing a link failed');
    return error.kind === 'invalid_grant'
      ? back('invalid_grant', 'The authorization code was refused')
      : back('temporarily_unavailable', 'The mail provider could not be reached');
  }
  const scope = tokens.scope ?? [];
  const row = await upsertCredential(
    deps.db,
    {
      user: state.user,
      brand: state.brand,
      provider: provider.name,
      remote_id: profile.id,
      email: profile.email,
      resource_name: profile.resourceName,
      display_name: profile.displayName,
      first_name: profile.firstName,
      last_name: profile.lastName,
      photo: profile.photo,
      scope,
      scope_summary: scopeSummary(scope),
      access_token_sealed: deps.secrets.encrypt(tokens.accessToken),
      refresh_token_sealed: tokens.refreshToken ? deps.secrets.encrypt(tokens.refreshToken) : null,
      access_expires_at: new Date(now.getTime() + tokens.expiresInSeconds * 1000),
    },
    now,
  );
  return { kind: 'redirect', location: state.redirect, credential: row.id };
}
