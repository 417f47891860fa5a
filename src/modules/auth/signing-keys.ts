// The keys id_tokens are signed with (docs/openid-connect.md "Signing keys"): one RS256 and one ES256 key at a
// time, made at first need, the private half sealed with the SecretBox. `gable admin keys rotate` adds a new pair
// that is published in the JWKS at once and signs only KEY_ACTIVATION_SECONDS later, so relying parties have it
// before they meet it; the key it replaces stays published until the id_tokens it signed have expired, then is
// dropped. Which key does what is computed from the two timestamps of each row, so every process agrees.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { addSeconds } from '../../lib/clock.js';
import {
  deleteSigningKeys,
  insertSigningKeys,
  listSigningKeys,
  lockSigningKeys,
  type NewSigningKey,
  type SigningKeyRow,
} from './signing-keys.repository.js';
import { SIGNING_ALGS, type SigningAlg } from './auth.columns.js';
import type { JsonWebKeySet } from './openid.schemas.js';
import {
  ID_TOKEN_SECONDS,
  KEY_ACTIVATION_SECONDS,
  KEY_RETENTION_SKEW_SECONDS,
  SIGNING_KEY_CACHE_SECONDS,
} from './token-policy.js';

/** What each stored key is at a moment. */
export interface KeyStates {
  /** The key each alg signs with now (absent before the first key of the alg exists). */
  signing: Map<SigningAlg, SigningKeyRow>;
  /** Every key the JWKS lists: the signing ones, the ones waiting to sign, the replaced ones still retained. */
  published: SigningKeyRow[];
  /** Replaced keys whose id_tokens have all expired: no longer published, to be deleted. */
  dropped: SigningKeyRow[];
}

/** Rows are sorted by alg, then activation (listSigningKeys). */
export function keyStates(rows: readonly SigningKeyRow[], now: Date): KeyStates {
  const states: KeyStates = { signing: new Map(), published: [], dropped: [] };
  const retention = (ID_TOKEN_SECONDS + KEY_RETENTION_SKEW_SECONDS) * 1000;
  for (const alg of SIGNING_ALGS) {
    const ofAlg = rows.filter((row) => row.alg === alg);
    ofAlg.forEach((row, index) => {
      const successor = ofAlg[index + 1];
      const active = row.activates_at <= now;
      const replacedAt = successor && successor.activates_at <= now ? successor.activates_at : null;
      if (active && replacedAt === null) states.signing.set(alg, row);
      if (replacedAt !== null && now.getTime() >= replacedAt.getTime() + retention) states.dropped.push(row);
      else states.published.push(row);
    });
  }
  return states;
}

// Per process: the rows, read again after SIGNING_KEY_CACHE_SECONDS (or at once after a change made here), and the
// imported private keys by kid (a kid is the key's thumbprint: one kid, one key, whatever the database).
const rowCache = new WeakMap<Kysely<DB>, { rows: SigningKeyRow[]; readAt: number }>();
const privateKeys = new Map<string, Promise<CryptoKey>>();

async function currentRows(deps: Deps): Promise<SigningKeyRow[]> {
  const now = deps.clock.now().getTime();
  const cached = rowCache.get(deps.db);
  if (cached && now >= cached.readAt && now - cached.readAt < SIGNING_KEY_CACHE_SECONDS * 1000) return cached.rows;
  const rows = await listSigningKeys(deps.db);
  rowCache.set(deps.db, { rows, readAt: now });
  return rows;
}

/** The keys' states now, making the first keys when an alg has none that signs (first need). */
export async function currentKeyStates(deps: Deps): Promise<KeyStates> {
  const now = deps.clock.now();
  let states = keyStates(await currentRows(deps), now);
  if (SIGNING_ALGS.every((alg) => states.signing.has(alg))) return states;
  await deps.db.transaction().execute(async (trx) => {
    await lockSigningKeys(trx);
    const found = keyStates(await listSigningKeys(trx), now);
    const missing = SIGNING_ALGS.filter((alg) => !found.signing.has(alg));
    // Nothing was published before: no relying party can hold an older JWKS, so these sign at once.
    if (missing.length > 0)
      await insertSigningKeys(trx, await Promise.all(missing.map((alg) => newKey(deps, alg, now))));
  });
  rowCache.delete(deps.db);
  states = keyStates(await currentRows(deps), now);
  return states;
}

/** The public JWKs of every published key (RFC 7517 §5), for GET /oauth2/jwks. */
export async function publishedJwks(deps: Deps): Promise<JsonWebKeySet> {
  const states = await currentKeyStates(deps);
  return { keys: states.published.map((row) => row.public_jwk as JsonWebKeySet['keys'][number]) };
}

/** The key that signs `alg` now, ready for jose. */
export async function signingKey(deps: Deps, alg: SigningAlg): Promise<{ kid: string; key: CryptoKey }> {
  const row = (await currentKeyStates(deps)).signing.get(alg);
  if (!row) throw new Error(`No ${alg} signing key`);
  let key = privateKeys.get(row.kid);
  if (!key) {
    const jwk = JSON.parse(deps.secrets.decrypt(row.private_jwk_sealed)) as JWK;
    key = importJWK(jwk, alg) as Promise<CryptoKey>;
    key.catch(() => privateKeys.delete(row.kid)); // a failed import is tried again next time
    privateKeys.set(row.kid, key);
  }
  return { kid: row.kid, key: await key };
}

export interface KeyRotation {
  added: { kid: string; alg: SigningAlg; signs_from: string }[];
  dropped: { kid: string; alg: SigningAlg }[];
  published: { kid: string; alg: SigningAlg; signs_from: string }[];
}

/**
 * `gable admin keys rotate`: a new RS256 and ES256 key, published now and signing from KEY_ACTIVATION_SECONDS on;
 * keys whose retention has ended are deleted. The first rotation of a database without keys makes the first keys.
 */
export async function rotateSigningKeys(deps: Deps): Promise<KeyRotation> {
  const now = deps.clock.now();
  const rotation = await deps.db.transaction().execute(async (trx) => {
    await lockSigningKeys(trx);
    const before = keyStates(await listSigningKeys(trx), now);
    const firstKeys = before.published.length === 0;
    const activatesAt = firstKeys ? now : addSeconds(now, KEY_ACTIVATION_SECONDS);
    const added = await Promise.all(SIGNING_ALGS.map((alg) => newKey(deps, alg, now, activatesAt)));
    await insertSigningKeys(trx, added);
    await deleteSigningKeys(
      trx,
      before.dropped.map((row) => row.id),
    );
    const after = keyStates(await listSigningKeys(trx), now);
    return {
      added: added.map((key) => ({ kid: key.kid, alg: key.alg, signs_from: key.activatesAt.toISOString() })),
      dropped: before.dropped.map((row) => ({ kid: row.kid, alg: row.alg })),
      published: after.published.map((row) => ({
        kid: row.kid,
        alg: row.alg,
        signs_from: row.activates_at.toISOString(),
      })),
    };
  });
  rowCache.delete(deps.db);
  return rotation;
}

/** Deletes the keys no longer published (the hourly purge); answers how many. */
export async function dropRetiredSigningKeys(deps: Deps): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await lockSigningKeys(trx);
    const { dropped } = keyStates(await listSigningKeys(trx), deps.clock.now());
    return deleteSigningKeys(
      trx,
      dropped.map((row) => row.id),
    );
  });
}

async function newKey(deps: Deps, alg: SigningAlg, now: Date, activatesAt = now): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    alg,
    publicJwk: { ...publicJwk, kid, alg, use: 'sig' },
    privateJwkSealed: deps.secrets.encrypt(JSON.stringify({ ...privateJwk, kid, alg })),
    createdAt: now,
    activatesAt,
  };
}
