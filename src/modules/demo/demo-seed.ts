// The demo world (`gable seed demo`, and the first start of an empty embedded server): a brokerage with two
// offices, four users with different ACLs, and one OAuth client of each kind.
//
// Idempotent and re-printable WITHOUT storing secrets: every id, password and client secret is derived from
// config.secretKey with HKDF (lib/crypto.ts), so a re-run finds the same rows and prints the same JSON. A row
// that drifted (a demo password changed, a client or brand deleted) is put back, so what is printed works.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { ClientKind } from '../auth/index.js';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { deriveKey, verificationKeys } from '../../lib/crypto.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { GRANTS_BY_KIND, clientSecretMatches, createOAuthClient, hashClientSecret } from '../auth/index.js';
import type { AclWord } from '../brands/index.js';
import { ensureBrand, findLiveMembership, insertMembership, updateMembership } from '../brands/index.js';
import { ensureDemoMls } from '../listings/index.js';
import {
  ensurePalette,
  existingBrandIds,
  findClientForSeed,
  findUserForSeed,
  lockDemoSeed,
  repairBrand,
  repairClient,
  reviveUser,
} from './demo-seed.repository.js';
import { createAccount } from '../users/index.js';

export const DEMO_REDIRECT_URIS = ['http://127.0.0.1:8787/callback', 'http://localhost:8787/callback'];

export interface DemoWorld {
  clients: {
    first_party: { client_id: string; client_secret: string };
    partner: { client_id: string; client_secret: string; redirect_uris: string[] };
    public: { client_id: string; redirect_uris: string[] };
  };
  brands: { id: string; name: string; parent: string | null }[];
  users: { id: string; email: string; password: string; memberships: { brand: string; acl: AclWord[] }[] }[];
}

type BrandKey = 'brokerage' | 'region' | 'downtown' | 'uptown';
// Printed in this order (the offices keep their places of earlier versions); written parents first.
const BRANDS: { key: BrandKey; name: string; parent: BrandKey | null; type: string }[] = [
  { key: 'brokerage', name: 'Demo Realty', parent: null, type: 'Brokerage' },
  { key: 'downtown', name: 'Demo Realty Downtown', parent: 'region', type: 'Office' },
  { key: 'uptown', name: 'Demo Realty Uptown', parent: 'region', type: 'Office' },
  { key: 'region', name: 'Demo Realty North Texas', parent: 'brokerage', type: 'Region' },
];
const depth = (key: BrandKey): number => {
  const parent = BRANDS.find((brand) => brand.key === key)!.parent;
  return parent ? depth(parent) + 1 : 0;
};

const USERS: {
  email: string;
  first: string;
  last: string;
  timezone: string;
  role: string;
  memberships: { brand: BrandKey; acl: AclWord[] }[];
}[] = [
  {
    email: 'admin@demo.example.com',
    first: 'Avery',
    last: 'Brooks',
    timezone: 'America/Chicago',
    role: 'Broker',
    memberships: [{ brand: 'brokerage', acl: ['Admin', 'CRM', 'Marketing', 'Deals'] }],
  },
  {
    email: 'dana.reyes@demo.example.com',
    first: 'Dana',
    last: 'Reyes',
    timezone: 'America/Chicago',
    role: 'Agent',
    memberships: [{ brand: 'downtown', acl: ['CRM', 'Marketing', 'Deals'] }],
  },
  {
    email: 'uma.patel@demo.example.com',
    first: 'Uma',
    last: 'Patel',
    timezone: 'America/New_York',
    role: 'Agent',
    memberships: [{ brand: 'uptown', acl: ['CRM', 'Deals'] }],
  },
  // The one without CRM: contacts, triggers and saved searches answer 403/404 for her.
  {
    email: 'sam.lee@demo.example.com',
    first: 'Sam',
    last: 'Lee',
    timezone: 'America/Los_Angeles',
    role: 'Marketing assistant',
    memberships: [{ brand: 'downtown', acl: ['Marketing'] }],
  },
];

const CLIENTS: { kind: ClientKind; clientId: string; name: string; redirectUris: string[] }[] = [
  { kind: 'first_party', clientId: 'demo-first-party', name: 'Demo first-party app', redirectUris: [] },
  { kind: 'partner', clientId: 'demo-partner', name: 'Demo partner integration', redirectUris: DEMO_REDIRECT_URIS },
  { kind: 'public', clientId: 'demo-public', name: 'Demo browser app (public)', redirectUris: DEMO_REDIRECT_URIS },
];

/** Derivations from the master secret, each under its own HKDF label. */
export class DemoSecrets {
  constructor(private readonly master: Buffer) {}

  /** A stable uuid (RFC 9562 version 8, "custom") for a demo row. */
  id(label: string): string {
    const bytes = deriveKey(this.master, `demo-id:${label}`).subarray(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x80;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** 120 bits, URL-safe. */
  password(email: string): string {
    return deriveKey(this.master, `demo-password:${email}`).toString('base64url').slice(0, 20);
  }

  clientSecret(clientId: string): string {
    return deriveKey(this.master, `demo-client-secret:${clientId}`).toString('base64url');
  }
}

/**
 * The derivations of the key the demo world was made with: during a rotation of SECRET_KEY (docs/secret-rotation.md)
 * a world made under a previous key keeps its ids and passwords, rather than a second world being made beside it.
 * Without a world yet, or when no configured key made it, SECRET_KEY's.
 */
export async function demoSecretsOf(deps: Pick<Deps, 'db' | 'config'>): Promise<DemoSecrets> {
  const keys = verificationKeys(deps.config);
  if (keys.length === 1) return new DemoSecrets(deps.config.secretKey);
  const candidates = keys.map((key) => new DemoSecrets(key));
  const found = await existingBrandIds(
    deps.db,
    candidates.map((secrets) => secrets.id('brand:brokerage')),
  );
  return candidates.find((secrets) => found.has(secrets.id('brand:brokerage'))) ?? candidates[0]!;
}

/** Creates (or puts back) the demo world and describes it. Safe to run any number of times, concurrently. */
export async function seedDemoWorld(deps: Pick<Deps, 'db' | 'config' | 'clock'>): Promise<DemoWorld> {
  const secrets = await demoSecretsOf(deps);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockDemoSeed(trx);
    const brandIds = Object.fromEntries(BRANDS.map((b) => [b.key, secrets.id(`brand:${b.key}`)])) as Record<
      BrandKey,
      string
    >;
    for (const brand of [...BRANDS].sort((a, b) => depth(a.key) - depth(b.key))) {
      const row = {
        id: brandIds[brand.key],
        name: brand.name,
        parent: brand.parent ? brandIds[brand.parent] : null,
        brandType: brand.type,
      };
      await ensureBrand(trx, row);
      await repairBrand(trx, row, now);
    }
    const brands: DemoWorld['brands'] = BRANDS.map((brand) => ({
      id: brandIds[brand.key],
      name: brand.name,
      parent: brand.parent ? brandIds[brand.parent] : null,
    }));
    // The brokerage's design system, unless an operator has set one: what the plugin shows and templates print.
    await ensurePalette(trx, brandIds.brokerage, demoPalette(deps.config.baseUrl), now);

    const users: DemoWorld['users'] = [];
    for (const user of USERS) {
      const id = secrets.id(`user:${user.email}`);
      const password = secrets.password(user.email);
      await ensureUser(trx, now, {
        id,
        email: user.email,
        password,
        firstName: user.first,
        lastName: user.last,
        timezone: user.timezone,
      });
      const memberships = user.memberships.map((m) => ({ brand: brandIds[m.brand], acl: m.acl }));
      for (const membership of memberships)
        await ensureMembership(trx, now, { user: id, brand: membership.brand, role: user.role, acl: membership.acl });
      users.push({ id, email: user.email, password, memberships });
    }

    const secretOf = new Map<ClientKind, string>();
    for (const client of CLIENTS) {
      const secret = client.kind === 'public' ? null : secrets.clientSecret(client.clientId);
      await ensureClient(trx, now, { ...client, secret });
      if (secret) secretOf.set(client.kind, secret);
    }
    // The demo listings' MLS in the registry: its name and disclaimer are the listings' mls_info.
    await ensureDemoMls(trx, now);
    return {
      clients: {
        first_party: { client_id: 'demo-first-party', client_secret: secretOf.get('first_party')! },
        partner: {
          client_id: 'demo-partner',
          client_secret: secretOf.get('partner')!,
          redirect_uris: [...DEMO_REDIRECT_URIS],
        },
        public: { client_id: 'demo-public', redirect_uris: [...DEMO_REDIRECT_URIS] },
      },
      brands,
      users,
    };
  });
}

/** Colours, the logos this server serves (src/modules/brands/demo-logos.routes.ts), the office's address and phone. */
function demoPalette(baseUrl: string): Record<string, unknown> {
  const logo = (name: string) => new URL(`/demo/logos/${name}.svg`, baseUrl).toString();
  return {
    'button-bg-color': '#0b5cad',
    'button-text-color': '#ffffff',
    'body-bg-color': '#ffffff',
    'body-text-color': '#1f2933',
    'container-logo-wide': logo('wide'),
    'container-logo-square': logo('square'),
    'inverted-logo-wide': logo('inverted-wide'),
    'inverted-logo-square': logo('inverted-square'),
    address: {
      full: '2200 Ross Ave, Dallas, TX 75201',
      line1: '2200 Ross Ave',
      city: 'Dallas',
      state: 'TX',
      postcode: '75201',
    },
    phone_number: '+12145550100',
  };
}

interface DemoUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  timezone: string;
}

async function ensureUser(db: Kysely<DB>, now: Date, user: DemoUser): Promise<void> {
  const existing = await findUserForSeed(db, user.id);
  if (!existing) {
    try {
      await createAccount(db, user);
    } catch (error) {
      if ((error as { code?: string }).code === 'Conflict') {
        throw errors.conflict(
          `${user.email} already belongs to a user that is not part of the demo world; remove it or seed another database`,
        );
      }
      throw error;
    }
    return;
  }
  const intact =
    existing.deleted_at === null &&
    existing.email === user.email &&
    (await verifyPassword(existing.password_hash, user.password));
  if (!intact)
    await reviveUser(db, user.id, { email: user.email, passwordHash: await hashPassword(user.password) }, now);
}

async function ensureMembership(
  db: Kysely<DB>,
  now: Date,
  membership: { user: string; brand: string; role: string; acl: AclWord[] },
): Promise<void> {
  const existing = await findLiveMembership(db, membership.user, membership.brand);
  if (!existing) {
    await insertMembership(db, membership);
    return;
  }
  const same =
    existing.role === membership.role && [...existing.acl].sort().join(',') === [...membership.acl].sort().join(',');
  if (!same) await updateMembership(db, existing.id, { role: membership.role, acl: membership.acl }, now);
}

async function ensureClient(
  db: Kysely<DB>,
  now: Date,
  client: { kind: ClientKind; clientId: string; name: string; redirectUris: string[]; secret: string | null },
): Promise<void> {
  const existing = await findClientForSeed(db, client.clientId);
  if (!existing) {
    await createOAuthClient(db, {
      name: client.name,
      kind: client.kind,
      redirectUris: client.redirectUris,
      clientId: client.clientId,
      ...(client.secret ? { clientSecret: client.secret } : {}),
    });
    return;
  }
  const secretOk =
    client.secret === null ? existing.secret_hash === null : clientSecretMatches(existing.secret_hash, client.secret);
  const intact =
    secretOk &&
    existing.deleted_at === null &&
    existing.kind === client.kind &&
    existing.redirect_uris.join(' ') === client.redirectUris.join(' ');
  if (!intact) {
    await repairClient(
      db,
      existing.id,
      {
        secretHash: client.secret ? hashClientSecret(client.secret) : null,
        kind: client.kind,
        redirectUris: client.redirectUris,
        grants: [...GRANTS_BY_KIND[client.kind]],
      },
      now,
    );
  }
}
