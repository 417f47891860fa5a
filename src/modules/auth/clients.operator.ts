// `gable admin client create|list` as work that the command runs on the database, or that a running embedded
// server runs for it through its operator channel (platform/operator-channel.ts): registering a partner's client
// does not need `npm start` stopped. A mistake comes back as an AppError, printed as one line.
import { errors } from '../../errors.js';
import { SIGNING_ALGS, type ClientKind, type SigningAlg } from './auth.columns.js';
import type { Deps } from '../../platform/deps.js';
import type { OperatorAction } from '../../platform/operator-channel.js';
import { clientIdTaken, listClients, updateAllowedScopes } from './clients.repository.js';
import { invalidAllowedScopes } from './scope-grant.js';
import { createOAuthClient, GRANTS_BY_KIND, type CreatedClient, type NewClient } from './clients.service.js';

/** Creates the client, refusing an id that exists already (deleted clients keep theirs) and writing nothing then. */
export async function createClientAsOperator(deps: Deps, client: NewClient): Promise<CreatedClient> {
  if (client.allowedScopes) assertAllowedScopes(client.allowedScopes);
  if (client.mayIntrospect && client.kind === 'public')
    throw errors.badRequest('A public client cannot introspect tokens: it has no secret to authenticate with');
  if (client.clientId !== undefined && (await clientIdTaken(deps.db, client.clientId)))
    throw errors.conflict(
      `A client with client_id ${client.clientId} exists already (deleted clients keep their id); nothing was written`,
    );
  try {
    return await createOAuthClient(deps.db, client);
  } catch (error) {
    // assertRedirectUri explains a bad redirect URI in plain words.
    if (error instanceof Error && error.message.startsWith('Redirect URI')) throw errors.badRequest(error.message);
    throw error;
  }
}

export type ListedClient = Awaited<ReturnType<typeof listClients>>[number];

/** What `gable admin client scopes` changes: the API scopes a client may ask for, null for every one. */
export interface ClientScopesChange {
  clientId: string;
  scopes: string[] | null;
}

/**
 * Narrows (or widens) what a client may ask for from now on. Logins granted before keep their scope until they
 * end or are revoked: their tokens were consented to as they are (docs/oauth.md, Scopes).
 */
export async function setClientScopesAsOperator(deps: Deps, change: ClientScopesChange) {
  if (change.scopes) assertAllowedScopes(change.scopes);
  const updated = await updateAllowedScopes(deps.db, change.clientId, change.scopes);
  if (!updated) throw errors.notFound(`Live client ${change.clientId}`);
  return updated;
}

function assertAllowedScopes(scopes: readonly string[]): void {
  const problem = scopes.length === 0 ? 'name at least one scope' : invalidAllowedScopes(scopes);
  if (problem) throw errors.invalidField('scopes', problem);
}

export function listClientsAsOperator(deps: Deps): Promise<ListedClient[]> {
  return listClients(deps.db);
}

/** The body the command sends: a NewClient, checked again here (the channel is another process's input). */
function parseNewClient(body: unknown): NewClient {
  const {
    name,
    kind,
    redirectUris,
    postLogoutRedirectUris,
    clientId,
    clientSecret,
    weakSecret,
    idTokenSignedResponseAlg,
    mayIntrospect,
    allowedScopes,
  } = (body ?? {}) as Record<string, unknown>;
  const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
  if (typeof name !== 'string' || !name.trim()) throw errors.invalidField('name', 'must be a non-empty string');
  if (typeof kind !== 'string' || !Object.hasOwn(GRANTS_BY_KIND, kind))
    throw errors.invalidField('kind', `must be one of ${Object.keys(GRANTS_BY_KIND).join(', ')}`);
  if (!isStringList(redirectUris)) throw errors.invalidField('redirectUris', 'must be an array of strings');
  if (postLogoutRedirectUris !== undefined && !isStringList(postLogoutRedirectUris))
    throw errors.invalidField('postLogoutRedirectUris', 'must be an array of strings');
  if (!optionalText(clientId) || !optionalText(clientSecret) || !(weakSecret === undefined || weakSecret === true))
    throw errors.badRequest('clientId and clientSecret must be strings, weakSecret true when given');
  if (!(mayIntrospect === undefined || typeof mayIntrospect === 'boolean'))
    throw errors.invalidField('mayIntrospect', 'must be a boolean');
  if (allowedScopes !== undefined && !isStringList(allowedScopes))
    throw errors.invalidField('allowedScopes', 'must be an array of strings');
  if (idTokenSignedResponseAlg !== undefined && !SIGNING_ALGS.includes(idTokenSignedResponseAlg as SigningAlg))
    throw errors.invalidField('idTokenSignedResponseAlg', `must be one of ${SIGNING_ALGS.join(', ')}`);
  return {
    name,
    kind: kind as ClientKind,
    redirectUris: redirectUris as string[],
    ...(postLogoutRedirectUris !== undefined ? { postLogoutRedirectUris: postLogoutRedirectUris as string[] } : {}),
    ...(clientId !== undefined ? { clientId: clientId as string } : {}),
    ...(clientSecret !== undefined ? { clientSecret: clientSecret as string } : {}),
    ...(weakSecret === true ? { weakSecret: true } : {}),
    ...(idTokenSignedResponseAlg !== undefined
      ? { idTokenSignedResponseAlg: idTokenSignedResponseAlg as SigningAlg }
      : {}),
    ...(mayIntrospect === true ? { mayIntrospect: true } : {}),
    ...(allowedScopes !== undefined ? { allowedScopes: allowedScopes as string[] } : {}),
  };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The body `gable admin client scopes` sends, checked again here. */
function parseScopesChange(body: unknown): ClientScopesChange {
  const { clientId, scopes } = (body ?? {}) as Record<string, unknown>;
  if (typeof clientId !== 'string') throw errors.invalidField('clientId', 'must be a string');
  if (scopes !== null && !isStringList(scopes))
    throw errors.invalidField('scopes', 'must be an array of strings or null');
  return { clientId, scopes };
}

export const clientScopesOperatorAction: OperatorAction = (deps, body) =>
  setClientScopesAsOperator(deps, parseScopesChange(body));

export const clientCreateOperatorAction: OperatorAction = (deps, body) =>
  createClientAsOperator(deps, parseNewClient(body));

export const clientListOperatorAction: OperatorAction = (deps) => listClientsAsOperator(deps);
