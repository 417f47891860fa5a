// Linking a mailbox and managing its credential (spec §4.3; decisions §12; docs/extmail.md).
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import { MicrosoftProvider } from './microsoft.js';
import type { ExtmailProvider } from './provider.js';
import { isAllowedRedirect } from './redirect.js';
import { LINK_SCOPES, type LinkScope } from './scopes.js';
import { StateSigner } from './state.js';
import { findCredential, listCredentials, softDeleteCredential, type CredentialRow } from './extmail.repository.js';
import { presentCredential, type CredentialRecord } from './extmail.presenter.js';

export function providerOf(deps: Deps): ExtmailProvider {
  return new MicrosoftProvider(deps.config, deps.outbound);
}

export const stateSignerOf = (deps: Deps) => new StateSigner(deps.config.secretKey, deps.config.previousSecretKeys);

/** The page that says a mailbox was linked, or why not (`error`, `error_description` from the callback). */
export const LINKED_PAGE = '/extmail/linked';

/**
 * Where the browser goes after linking when the caller names no place: the web app, or, where there is none
 * (WEB_URL unset: it is this server, which has no page at `/`), this server's own page that says how it went.
 */
export function defaultRedirect(config: { webUrl: string; baseUrl: string }): string {
  return config.webUrl === config.baseUrl ? `${config.baseUrl}${LINKED_PAGE}` : `${config.webUrl}/`;
}

/** The provider sends the browser here (register it as the app's redirect URI at Microsoft). */
export const callbackUrl = (deps: Deps) => `${deps.config.baseUrl}/extmail/callback`;

export interface AuthLink {
  type: 'extmail_auth_link';
  url: string;
  redirect: string;
}

export async function createLink(
  deps: Deps,
  actor: Actor,
  brand: string,
  input: { redirect?: string | undefined; body?: LinkScope[] | undefined },
): Promise<AuthLink> {
  const user = actor.userId!;
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  const provider = providerOf(deps);
  const missing = provider.missingSetting();
  if (missing)
    throw errors.preconditionFailed(`Linking a mailbox is not configured on this server: ${missing} is not set`);
  const redirect = input.redirect ?? defaultRedirect(deps.config);
  if (!(await isAllowedRedirect(deps.db, deps.config, actor.client, redirect))) {
    throw errors.invalidField(
      'redirect',
      'must be an address on this server or a redirect URI registered for your client',
    );
  }
  const scopes = input.body && input.body.length > 0 ? [...new Set(input.body)] : [...LINK_SCOPES];
  const signer = stateSignerOf(deps);
  const { state, nonce } = signer.sign({ user, brand, redirect }, deps.clock.now());
  const url = provider.authorizeUrl({
    state,
    codeChallenge: signer.codeChallenge(nonce),
    redirectUri: callbackUrl(deps),
    scopes,
  });
  return { type: 'extmail_auth_link', url, redirect };
}

/** A partner token bound to a brand sees only that brand's credentials. */
const boundBrandOf = (actor: Actor) => actor.boundBrand;

export async function listOwnCredentials(deps: Deps, actor: Actor): Promise<CredentialRecord[]> {
  const rows = await listCredentials(deps.db, actor.userId!, boundBrandOf(actor));
  return rows.map((row) => presentCredential(row));
}

/** The caller's own live credential; anyone else's (or a deleted one) is a 404, existence not revealed. */
export async function ownCredential(
  deps: Deps,
  actor: Actor,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CredentialRow> {
  const row = await findCredential(deps.db, id, options);
  const bound = boundBrandOf(actor);
  if (!row || row.user !== actor.userId || (bound !== null && row.brand !== bound))
    throw errors.notFound('External mail credential');
  return row;
}

export async function getOwnCredential(deps: Deps, actor: Actor, id: string): Promise<CredentialRecord> {
  return presentCredential(await ownCredential(deps, actor, id));
}

/** Soft delete: tokens erased; the provider's refresh token is revoked first where the provider can. */
export async function deleteOwnCredential(deps: Deps, actor: Actor, id: string): Promise<CredentialRecord> {
  const row = await ownCredential(deps, actor, id);
  if (row.refresh_token_sealed) {
    try {
      await providerOf(deps).revoke(deps.secrets.decrypt(row.refresh_token_sealed));
    } catch (error) {
      // The provider being down must not keep the user from removing the link; the tokens are erased anyway.
      deps.log.warn({ err: error, credential: id }, 'extmail: revoking the refresh token failed');
    }
  }
  const deleted = await softDeleteCredential(deps.db, id, deps.clock.now());
  if (!deleted) throw errors.notFound('External mail credential');
  return presentCredential(deleted);
}
