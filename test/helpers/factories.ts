// Test data written straight to the database (the thing under test is never the factory).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../src/platform/deps.js';
import type { ClientKind } from '../../src/modules/auth/auth.columns.js';
import { hashPassword } from '../../src/lib/passwords.js';
import { issueNewFamily } from '../../src/modules/auth/tokens.service.js';
import { createOAuthClient } from '../../src/modules/auth/clients.service.js';

const unique = () => randomBytes(4).toString('hex');

export async function createBrand(
  deps: Deps,
  fields: { name?: string; parent?: string | null; brand_type?: string } = {},
) {
  return deps.db
    .insertInto('brands')
    .values({
      name: fields.name ?? `Brand ${unique()}`,
      parent: fields.parent ?? null,
      ...(fields.brand_type ? { brand_type: fields.brand_type } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const TEST_PASSWORD = 'correct horse battery staple';
let cachedHash: Promise<string> | undefined;

export async function createUser(
  deps: Deps,
  fields: { email?: string; password?: string | null; first_name?: string; last_name?: string; timezone?: string } = {},
) {
  const password = fields.password === undefined ? TEST_PASSWORD : fields.password;
  // hashing is slow on purpose; reuse the hash of the default password
  const passwordHash =
    password === null
      ? null
      : password === TEST_PASSWORD
        ? await (cachedHash ??= hashPassword(TEST_PASSWORD))
        : await hashPassword(password);
  return deps.db
    .insertInto('users')
    .values({
      email: fields.email ?? `user-${unique()}@example.com`,
      password_hash: passwordHash,
      first_name: fields.first_name ?? 'Test',
      last_name: fields.last_name ?? 'User',
      ...(fields.timezone ? { timezone: fields.timezone } : {}),
      username: null,
      phone_number: null,
      address_id: null,
      cover_image_url: null,
      profile_image_url: null,
      cover_image_thumbnail_url: null,
      profile_image_thumbnail_url: null,
      active_brand: null,
      fake_email: null,
      features: null,
      last_seen_at: null,
      last_seen_type: null,
      website: null,
      instagram: null,
      twitter: null,
      linkedin: null,
      youtube: null,
      facebook: null,
      tiktok: null,
      designation: null,
      vendor_user_id: null,
      mfa_secret: null,
      mfa_last_step: null,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addMembership(
  deps: Deps,
  user: string,
  brand: string,
  acl: string[] = ['Admin', 'CRM', 'Marketing', 'Deals'],
) {
  return deps.db
    .insertInto('memberships')
    .values({ user, brand, acl, deleted_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createClient(
  deps: Deps,
  kind: ClientKind = 'first_party',
  fields: { redirect_uris?: string[]; name?: string; post_logout_redirect_uris?: string[]; introspect?: boolean } = {},
) {
  return createOAuthClient(deps.db, {
    name: fields.name ?? `Test ${kind} client`,
    kind,
    redirectUris: fields.redirect_uris ?? (kind === 'first_party' ? [] : ['http://127.0.0.1:4999/callback']),
    ...(fields.post_logout_redirect_uris ? { postLogoutRedirectUris: fields.post_logout_redirect_uris } : {}),
    ...(fields.introspect ? { mayIntrospect: true } : {}),
  });
}

/** An access token for the user, as if they had logged in (bypasses the grant under test elsewhere). */
export async function tokenFor(
  deps: Deps,
  user: string,
  options: { client?: string; brand?: string | null; mfaValidated?: boolean } = {},
) {
  const client = options.client ?? (await createClient(deps)).id;
  return issueNewFamily(deps.db, deps.clock, {
    user,
    client,
    brand: options.brand ?? null,
    grantType: 'password',
    mfaValidated: options.mfaValidated ?? false,
    withRefreshToken: true,
  });
}

export const bearer = (token: { access_token: string } | string) => ({
  authorization: `Bearer ${typeof token === 'string' ? token : token.access_token}`,
});
