// What the listing page (and, of it, the alert pages) needs of a brand (docs/public-pages.md "Speed"): its theme (the palette with every colour's
// contrast checked) and whether it takes leads (a live lead channel: the "Ask about this home" form). Two statements
// and the contrast arithmetic per page view otherwise, for data that changes a few times a year; so each process
// keeps what it read for a brand for PAGE_BRAND_TTL_MS.
//
// Why a short TTL is correct across processes, with no invalidation: a change made through another process shows
// here at most that late, and
// - the page itself is sent with `Cache-Control: public, max-age=300` (public-pages.routes.ts): any shared cache may
//   already serve it five minutes stale, so a palette, logo or brand name seconds late is within what the page
//   promises anyway;
// - a deleted lead channel (or a deleted brand) can leave the form on a page for that long, but the form's POST
//   decides nothing from this cache: it reads the brand's current default channel (lead-form.service.ts
//   submitAskForm) and the lead service finds the channel again in its own transaction. A post after the channel
//   went answers the "Questions are closed" page (404) and writes nothing — never a 5xx, never a lead in a deleted
//   channel. A new channel's form appears at most that late.
// The listing page (GET) and the alert pages (results and preferences, for their theme only) read through here; the
// form's POST and its thanks page do not.
import type { Deps } from '../../platform/deps.js';
import { firstLiveBrandPalette } from '../brands/index.js';
import { defaultLeadChannel } from '../contacts/index.js';
import { themeOf, type Theme } from './theme.js';

export const PAGE_BRAND_TTL_MS = 30_000;
/** Brands kept at most; past it the map starts over (a few hundred brands at most link pages in practice). */
const MAX_BRANDS = 5_000;

export interface PageBrand {
  theme: Theme;
  /** The brand has a live lead channel: the page offers the form. */
  takesLeads: boolean;
}

interface Entry {
  /** null: no live brand of this id (deleted, unknown): the next candidate styles the page. */
  brand: PageBrand | null;
  until: number;
}

const entries = new Map<string, Entry>();

async function load(deps: Pick<Deps, 'db'>, id: string): Promise<PageBrand | null> {
  const palette = await firstLiveBrandPalette(deps, [id]);
  if (!palette) return null;
  return { theme: themeOf(palette), takesLeads: (await defaultLeadChannel(deps, palette.id)) !== null };
}

/** The first live brand of `candidates` (in order) as the listing page shows it; null for the neutral style. */
export async function pageBrand(deps: Pick<Deps, 'db'>, candidates: readonly string[]): Promise<PageBrand | null> {
  for (const raw of candidates) {
    const id = raw.toLowerCase();
    const now = Date.now();
    let entry = entries.get(id);
    if (!entry || entry.until <= now) {
      entry = { brand: await load(deps, id), until: now + PAGE_BRAND_TTL_MS };
      if (entries.size >= MAX_BRANDS) entries.clear();
      entries.set(id, entry);
    }
    if (entry.brand) return entry.brand;
  }
  return null;
}

/** Tests: forget every brand (as if PAGE_BRAND_TTL_MS had passed). */
export function forgetPageBrands(): void {
  entries.clear();
}
