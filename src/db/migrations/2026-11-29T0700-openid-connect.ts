// OpenID Connect on the code flow (issue 33, decisions §22, docs/openid-connect.md): the signing keys of
// id_tokens, what an authorization request asked for (scope, nonce) and how the user signed in (auth_time, amr),
// carried from the sign-in pages through the code to the token family, and the alg a client wants its id_tokens in.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per key. The private JWK is sealed (SecretBox, `gable secrets rotate` re-seals it); the public JWK is
  // what /oauth2/jwks publishes. A key is published from created_at, signs from activates_at, and is dropped once
  // a newer key of its alg has signed long enough for every id_token it signed to have expired
  // (modules/auth/signing-keys.ts).
  await sql`
    create table signing_keys (
      id uuid primary key default gen_random_uuid(),
      kid text not null unique,
      alg text not null check (alg in ('RS256', 'ES256')),
      public_jwk jsonb not null,
      private_jwk_sealed text not null,
      created_at timestamptz not null,
      activates_at timestamptz not null
    )`.execute(db);
  await sql`create index signing_keys_alg_activates on signing_keys (alg, activates_at)`.execute(db);

  // When the user signed in on the authorization pages (the id_token's auth_time). Sessions signed in before
  // this column existed take their creation, a time no later than the sign-in.
  await sql`alter table web_sessions add column signed_in_at timestamptz`.execute(db);
  await sql`update web_sessions set signed_in_at = created_at where "user" is not null`.execute(db);

  // The request's scope as sent, its nonce, and the sign-in's time and methods: the code hands them to the family.
  await sql`
    alter table authorization_codes
      add column scope text,
      add column nonce text,
      add column auth_time timestamptz,
      add column amr text[]`.execute(db);
  // A refresh issues a new id_token for an openid family (OIDC Core 12.2), and userinfo answers by its scope.
  await sql`
    alter table token_families
      add column scope text,
      add column auth_time timestamptz,
      add column amr text[]`.execute(db);

  await sql`
    alter table oauth_clients
      add column id_token_signed_response_alg text not null default 'RS256'
        check (id_token_signed_response_alg in ('RS256', 'ES256'))`.execute(db);
}
