// SQL of OAuth clients: lookups for client authentication and the operator listing.
import type { Insertable, Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { DB, Narrowed } from '../../db/types.js';
import type { ClientKind, SigningAlg } from './auth.columns.js';

function liveClientQuery(db: Kysely<DB>, clientId: string) {
  return db
    .selectFrom('oauth_clients')
    .select([
      'id',
      'client_id',
      'secret_hash',
      'name',
      'kind',
      'redirect_uris',
      'grants',
      'id_token_signed_response_alg',
      'may_introspect',
      'allowed_scopes',
    ])
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null);
}

/** A live (not deleted) client by its public client_id (prepared: every token request authenticates its client). */
export const findLiveClient = preparedQuery<[string], ClientRow>(
  'auth.find-live-client',
  ['\u0000client-id stand-in'],
  liveClientQuery,
);

export type ClientRow = Narrowed<
  NonNullable<Awaited<ReturnType<ReturnType<typeof liveClientQuery>['executeTakeFirst']>>>,
  { kind: ClientKind; id_token_signed_response_alg: SigningAlg }
>;

/** What an operator is shown of a client (never the secret's hash). */
const SHOWN_COLUMNS = [
  'id',
  'client_id',
  'name',
  'kind',
  'redirect_uris',
  'post_logout_redirect_uris',
  'grants',
  'weak_secret',
  'id_token_signed_response_alg',
  'may_introspect',
  'allowed_scopes',
] as const;

export function listClients(db: Kysely<DB>) {
  return db
    .selectFrom('oauth_clients')
    .select([...SHOWN_COLUMNS, 'created_at', 'deleted_at'])
    .orderBy('created_at')
    .orderBy('client_id')
    .execute();
}

/** Whether a client_id is taken, by a live or a deleted client (ids are never reused). */
export async function clientIdTaken(db: Kysely<DB>, clientId: string): Promise<boolean> {
  const row = await db.selectFrom('oauth_clients').select('id').where('client_id', '=', clientId).executeTakeFirst();
  return row !== undefined;
}

/** A live client by its row id, as the sign-in pages name it and check a pending request's redirect URI. */
export async function findLiveClientById(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('oauth_clients')
    .select(['id', 'name', 'redirect_uris', 'allowed_scopes'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A live client by its public client_id, as an authorization request names it (no secret: the page needs none). */
export async function findAuthorizingClient(db: Kysely<DB>, clientId: string) {
  return db
    .selectFrom('oauth_clients')
    .select(['id', 'client_id', 'name', 'kind', 'redirect_uris', 'grants', 'allowed_scopes'])
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Sets the API scopes a live client may ask for (null: every scope); answers what an operator is shown. */
export async function updateAllowedScopes(db: Kysely<DB>, clientId: string, scopes: string[] | null) {
  return db
    .updateTable('oauth_clients')
    .set({ allowed_scopes: scopes })
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .returning(SHOWN_COLUMNS)
    .executeTakeFirst();
}

/** A new client; answers what the creator is shown (never the secret's hash). */
export async function insertClient(db: Kysely<DB>, client: Insertable<DB['oauth_clients']>) {
  return db.insertInto('oauth_clients').values(client).returning(SHOWN_COLUMNS).executeTakeFirstOrThrow();
}

/** What an id_token issued by the pages needs of its client: the `aud` and the alg. */
export async function findIdTokenClient(db: Kysely<DB>, id: string) {
  const row = await db
    .selectFrom('oauth_clients')
    .select(['client_id', 'id_token_signed_response_alg'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { client_id: row.client_id, alg: row.id_token_signed_response_alg as SigningAlg };
}

/** A live client by its public client_id, as a logout request names it: where it may send the browser back. */
export async function findLogoutClient(db: Kysely<DB>, clientId: string) {
  return db
    .selectFrom('oauth_clients')
    .select(['client_id', 'name', 'post_logout_redirect_uris'])
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
