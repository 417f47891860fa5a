// OpenID Connect RP-Initiated Logout 1.0 (docs/openid-connect.md): a client sends the browser here to end the
// user's sign-in on the authorization pages, and may have it sent back to a post_logout_redirect_uri registered
// for it. As with redirect_uri, an address that is not registered is shown on a page, never redirected to.
import type { Deps } from '../platform/deps.js';
import { findLogoutClient, readIdTokenHint } from '../modules/auth/index.js';
import { authorizationRedirect } from './authorization-request.js';

type Params = Record<string, unknown>;

export type ParsedLogout =
  | { kind: 'page'; title: string; message: string }
  | {
      kind: 'valid';
      /** Where to send the browser after the sign-out (with `state`), or null to show a page. */
      redirect: string | null;
      clientName: string | null;
      /** The user the id_token_hint names: a sign-out of that user needs no confirmation. */
      hintedUser: string | null;
      /** What the confirmation form posts back (the client is named by its id; the hint is not repeated). */
      fields: Record<string, string>;
    };

const NAMES = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'] as const;

export async function parseLogoutRequest(deps: Deps, params: Params): Promise<ParsedLogout> {
  const values: Partial<Record<(typeof NAMES)[number], string>> = {};
  for (const name of NAMES) {
    const value = params[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') return page('Invalid request', `${name} must be sent once, as text.`);
    values[name] = value;
  }

  const hint = values.id_token_hint === undefined ? null : await readIdTokenHint(deps, values.id_token_hint);
  if (values.id_token_hint !== undefined && !hint)
    return page('Invalid request', 'The sign-in this request refers to (id_token_hint) was not issued here.');
  if (hint && values.client_id !== undefined && !hint.aud.includes(values.client_id))
    return page(
      'Invalid request',
      'The sign-in this request refers to (id_token_hint) belongs to another application.',
    );

  const clientId = values.client_id ?? hint?.aud[0];
  const client = clientId === undefined ? undefined : await findLogoutClient(deps.db, clientId);
  if (clientId !== undefined && !client)
    return page('Unknown application', 'The application that sent you here is not registered.');

  const uri = values.post_logout_redirect_uri;
  if (uri !== undefined) {
    if (!client)
      return page(
        'Invalid request',
        'The application that sent you here did not identify itself (client_id or id_token_hint), so you were not sent back.',
      );
    if (!client.post_logout_redirect_uris.includes(uri))
      return page(
        'Invalid request',
        `The address ${client.name} asked to send you to after signing out is not registered for it, so you were not sent there.`,
      );
  }
  const state = values.state ?? null;
  return {
    kind: 'valid',
    redirect: uri === undefined ? null : state === null ? uri : authorizationRedirect(uri, 'code', { state }),
    clientName: client?.name ?? null,
    hintedUser: hint?.sub ?? null,
    fields: {
      ...(client ? { client_id: client.client_id } : {}),
      ...(uri !== undefined ? { post_logout_redirect_uri: uri } : {}),
      ...(values.state !== undefined ? { state: values.state } : {}),
    },
  };
}

function page(title: string, message: string): ParsedLogout {
  return { kind: 'page', title, message };
}
