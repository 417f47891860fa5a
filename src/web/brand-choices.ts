// The brands a user may hand to a partner: every brand they reach (decisions §2), on a white-label host
// only that brand's subtree.
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { reachableBrandIds, findBrandsWithParentNames } from '../modules/brands/index.js';
import type { BrandChoice } from './brand-pages.js';

export async function brandChoices(
  db: Kysely<DB>,
  userId: string,
  whiteLabelBrand: string | null,
): Promise<BrandChoice[]> {
  const ids = await reachableBrandIds(db, userId, whiteLabelBrand);
  if (ids.length === 0) return [];
  const rows = await findBrandsWithParentNames(db, ids);
  return inTreeOrder(rows);
}

/** Each brand followed by the brands under it (depth first, names alphabetical), as people read a hierarchy. */
function inTreeOrder(
  rows: { id: string; name: string; parent: string | null; parentName: string | null }[],
): BrandChoice[] {
  const present = new Set(rows.map((r) => r.id));
  const children = new Map<string | null, typeof rows>();
  for (const row of rows) {
    const key = row.parent !== null && present.has(row.parent) ? row.parent : null;
    children.set(key, [...(children.get(key) ?? []), row]);
  }
  const ordered: BrandChoice[] = [];
  const visit = (parent: string | null) => {
    for (const row of (children.get(parent) ?? []).sort((a, b) => a.name.localeCompare(b.name))) {
      ordered.push({ id: row.id, name: row.name, parentName: row.parentName });
      visit(row.id);
    }
  };
  visit(null);
  return ordered;
}
