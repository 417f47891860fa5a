// The brand profile (public), its children, its marketing palette and its roster (decisions §19).
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { isUuid } from '../../lib/uuid.js';
import { toUserRecord } from '../users/index.js';
import { requireAccess, subtreeIds } from './access.js';
import type { BrandRecord, RosterRow } from './brands.schemas.js';
import { effectivePalette, validatePalette, type Palette } from './palette.js';
import { brandsWithAncestors, childIds, rosterPage, setOwnPalette, type ProfileRow } from './profile.repository.js';

export interface BrandExpansion {
  /** `brand.parent` or `brand.parents`: the parent as a nested record, recursively. */
  parentRecords: boolean;
  /** `brand.parents`: ancestor ids. */
  parentIds: boolean;
  /** `brand.settings`: the effective marketing palette. */
  settings: boolean;
}

export function brandExpansion(associations: Set<string>): BrandExpansion {
  return {
    parentRecords: associations.has('brand.parent') || associations.has('brand.parents'),
    parentIds: associations.has('brand.parents'),
    settings: associations.has('brand.settings'),
  };
}

/** Presents brands from rows that hold each of them and all their ancestors (brandsWithAncestors). */
class BrandPresenter {
  constructor(
    private readonly rows: Map<string, ProfileRow>,
    private readonly expansion: BrandExpansion,
  ) {}

  /** The brand first, the root last. */
  chain(id: string): ProfileRow[] {
    const chain: ProfileRow[] = [];
    for (
      let row = this.rows.get(id);
      row && chain.length < 33;
      row = row.parent ? this.rows.get(row.parent) : undefined
    )
      chain.push(row);
    return chain;
  }

  record(id: string): BrandRecord {
    const chain = this.chain(id);
    const row = chain[0]!;
    const record: BrandRecord = {
      id: row.id,
      type: 'brand',
      name: row.name,
      brand_type: row.brand_type,
      parent: row.parent,
    };
    if (this.expansion.parentRecords && row.parent && this.rows.has(row.parent))
      record.parent = this.record(row.parent);
    if (this.expansion.parentIds) record.parents = chain.slice(1).map((ancestor) => ancestor.id);
    if (this.expansion.settings) record.settings = { marketing_palette: effectivePalette(chain) };
    return record;
  }
}

async function presenterFor(deps: Deps, ids: string[], expansion: BrandExpansion): Promise<BrandPresenter> {
  return new BrandPresenter(await brandsWithAncestors(deps.db, ids), expansion);
}

/** GET /brands/:brand — public: a brand that does not exist or is deleted is 404, whoever asks. */
export async function getBrandProfile(deps: Deps, brand: string, expansion: BrandExpansion): Promise<BrandRecord> {
  const presenter = await presenterFor(deps, [brand], expansion);
  if (presenter.chain(brand).length === 0) throw errors.notFound('Brand');
  return presenter.record(brand);
}

/**
 * The first of these brands that is live, with its name and effective marketing palette (public data, decisions
 * §19): the style of a public page, which tries the brand its link names, then the listing agent's. One statement.
 */
export async function firstLiveBrandPalette(
  deps: Pick<Deps, 'db'>,
  ids: readonly string[],
): Promise<{ id: string; name: string; palette: Palette } | undefined> {
  const candidates = ids.filter(isUuid);
  if (candidates.length === 0) return undefined;
  const presenter = new BrandPresenter(await brandsWithAncestors(deps.db, candidates), {
    parentRecords: false,
    parentIds: false,
    settings: false,
  });
  for (const id of candidates) {
    const chain = presenter.chain(id);
    if (chain[0]) return { id, name: chain[0].name, palette: effectivePalette(chain) };
  }
  return undefined;
}

/** GET /brands/:brand/children — members of the brand (or an ancestor) only. */
export async function listChildren(
  deps: Deps,
  actor: Actor,
  brand: string,
  expansion: BrandExpansion,
): Promise<BrandRecord[]> {
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  const ids = await childIds(deps.db, brand);
  const presenter = await presenterFor(deps, ids, expansion);
  return ids.map((id) => presenter.record(id));
}

/** PUT /brands/:brand/settings/marketing_palette — replaces the brand's own keys (Admin). */
export async function replacePalette(deps: Deps, actor: Actor, brand: string, palette: unknown): Promise<BrandRecord> {
  await requireAccess(deps.db, actor, brand, 'Admin', { denied: 'forbidden' });
  return writePalette(deps, brand, validatePalette(palette));
}

/** The operator's `gable admin brand palette`: changes some keys (null removes one) and address fields, keeps the others. */
export async function changePalette(
  deps: Deps,
  brand: string,
  changes: Record<string, string | null>,
  address?: Record<string, string>,
): Promise<BrandRecord> {
  if (!isUuid(brand)) throw errors.invalidField('brand', 'must be a brand id (uuid)');
  const own = (await brandsWithAncestors(deps.db, [brand])).get(brand);
  if (!own) throw errors.notFound(`Brand ${brand}`);
  const next: Palette = { ...own.marketing_palette };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (address) next.address = { ...(next.address as Record<string, string> | undefined), ...address };
  return writePalette(deps, brand, validatePalette(next));
}

async function writePalette(deps: Deps, brand: string, palette: Palette): Promise<BrandRecord> {
  await setOwnPalette(deps.db, brand, palette, deps.clock.now());
  return getBrandProfile(deps, brand, { parentRecords: false, parentIds: false, settings: true });
}

/** GET /brands/:brand/users — members of the brand and every brand below it, with their brands in that subtree. */
export async function listRoster(
  deps: Deps,
  actor: Actor,
  brand: string,
  expansion: BrandExpansion,
  paging: { start: number; limit: number },
): Promise<{ rows: RosterRow[]; total: number }> {
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  const subtree = await subtreeIds(deps.db, brand);
  const page = await rosterPage(deps.db, subtree, paging.start, paging.limit);
  const presenter = await presenterFor(deps, [...new Set(page.members.flatMap((member) => member.brands))], expansion);
  const now = deps.clock.now();
  const rows = page.members.map(({ row, brands }) => {
    const { has_password: _password, mfa_enabled: _mfa, ...member } = toUserRecord(row, now, brand);
    return { ...member, brands: brands.map((id) => presenter.record(id)), user: member };
  });
  return { rows, total: page.total };
}
