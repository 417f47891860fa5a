// The MLS registry: each MLS's display name, the disclaimer its rules require next to its listings and its logo,
// shown as a listing's `mls_info` (associations[]=listing.mls_info). Operators manage it (`gable admin mls`).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import { DEFAULT_SEED_MLS } from './listings.seed-defaults.js';
import {
  insertMlsIfMissing,
  listMlsRegistry,
  upsertMls,
  type MlsRegistryChanges,
  type MlsRegistryRow,
} from './mls-registry.repository.js';

/** The same names listings use (`POST /mls/:mls/listings`). */
const MLS_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_NAME = 200;
const MAX_DISCLAIMER = 20_000;
const MAX_URL = 2000;

export interface MlsSettings {
  name?: string;
  /** Kept verbatim, `{{currentYear}}` included; an empty string clears it. */
  disclaimer?: string;
  /** http(s) URL; an empty string clears it. */
  logoUrl?: string;
}

/** Creates or changes an MLS's registry row; a new MLS needs a name. Operator mistakes are 400s. */
export async function setMls(db: Kysely<DB>, mls: string, settings: MlsSettings, now: Date): Promise<MlsRegistryRow> {
  if (!MLS_NAME.test(mls))
    throw errors.invalidField('mls', 'must be 1–64 letters, digits, "_", "." or "-" (the MLS of its listings)');
  const changes: MlsRegistryChanges = {};
  if (settings.name !== undefined) {
    const name = settings.name.trim();
    if (name === '' || name.length > MAX_NAME) throw errors.invalidField('name', `must be 1–${MAX_NAME} characters`);
    changes.name = name;
  }
  if (settings.disclaimer !== undefined) {
    if (settings.disclaimer.length > MAX_DISCLAIMER || settings.disclaimer.includes('\u0000'))
      throw errors.invalidField('disclaimer', `must be at most ${MAX_DISCLAIMER} characters of text`);
    changes.disclaimer = settings.disclaimer === '' ? null : settings.disclaimer;
  }
  if (settings.logoUrl !== undefined) changes.logo_url = settings.logoUrl === '' ? null : httpUrl(settings.logoUrl);
  if (Object.keys(changes).length === 0)
    throw errors.badRequest('nothing to set: give --name, --disclaimer or --logo-url');
  const row = await upsertMls(db, mls, changes, now);
  if (!row) throw errors.invalidField('name', `is required for an MLS not in the registry yet (${mls})`);
  return row;
}

export function listMls(db: Kysely<DB>): Promise<MlsRegistryRow[]> {
  return listMlsRegistry(db);
}

function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.invalidField('logo_url', 'must be an http(s) URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || value.length > MAX_URL)
    throw errors.invalidField('logo_url', `must be an http(s) URL of at most ${MAX_URL} characters`);
  return value;
}

/** The demo world's MLS (the one `gable seed listings` writes by default) with a disclaimer like a real one's. */
export const DEMO_MLS = {
  mls: DEFAULT_SEED_MLS,
  name: 'Gable Demo MLS',
  disclaimer:
    'The data relating to real estate for sale on this website comes in part from the Gable Demo MLS. Information is ' +
    'deemed reliable but not guaranteed. © {{currentYear}} Gable Demo MLS. All rights reserved.',
  logo_url: null,
} as const;

/** Demo seed: the demo MLS's registry row, unless an operator has set one already. */
export async function ensureDemoMls(db: Kysely<DB>, now: Date): Promise<void> {
  await insertMlsIfMissing(db, DEMO_MLS, now);
}
