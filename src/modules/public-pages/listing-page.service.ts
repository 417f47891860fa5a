// GET /l/:listing (decisions §21): which listing, in which style. The listing only when publicly displayable (the
// anonymous search's rule, through the listings module); the style of the brand a signed `b` names, else of the
// listing agent's brand, else neutral. A forged or misplaced `b` is ignored, never obeyed. One statement: the
// listing (with its agent, MLS and agent's brand). The brand's theme and whether it takes leads (which decides
// whether the page offers the "Ask about this home" form) come from page-brand.cache.ts: two more statements only
// when this process has not read that brand in the last PAGE_BRAND_TTL_MS.
import type { Deps } from '../../platform/deps.js';
import { findPublicListing } from '../listings/index.js';
import { usStateTimeZone } from '../../lib/us-state-time-zones.js';
import { askFormFor } from './lead-form.service.js';
import { listingPageUrl, verifiedBrand } from './listing-link.js';
import { pageBrand } from './page-brand.cache.js';
import { listingPage } from './listing-page.view.js';
import { notFoundPage } from './not-found.view.js';
import { PageFormat } from './page-format.js';
import type { RenderedPage } from './page-layout.js';
import { themeOf, type Theme } from './theme.js';

export interface PageAnswer {
  status: 200 | 404;
  page: RenderedPage;
}

const US = new Set(['US', 'USA', 'UNITED STATES']);

/** The property's own clock for open houses: the brand's `time-zone`, else its US state's zone, else UTC. */
function timeZoneOf(theme: Theme, address: { state: string | null; country: string | null }): string {
  const inUs = address.country === null || US.has(address.country.trim().toUpperCase());
  return theme.timeZone ?? (inUs ? usStateTimeZone(address.state) : null) ?? 'UTC';
}

export async function showListingPage(
  deps: Pick<Deps, 'db' | 'database' | 'clock' | 'config'>,
  listingId: string,
  b: unknown,
): Promise<PageAnswer> {
  const listing = await findPublicListing(deps, listingId);
  // The signature binds (listing, brand): checked for a missing listing too, so its 404 page keeps the brand.
  const signed = verifiedBrand(deps.config, listingId, b);
  const candidates = [signed, listing?.listAgentBrand].filter((id): id is string => !!id);
  const brand = await pageBrand(deps, candidates);
  const theme = brand?.theme ?? themeOf(null);
  const appName = deps.config.appName;
  if (!listing) return { status: 404, page: notFoundPage({ theme, appName }) };
  const { record } = listing;
  const format = new PageFormat(theme.locale, timeZoneOf(theme, record.property.address));
  // The canonical address carries the brand actually shown only when the link named it (signed).
  const pageUrl = listingPageUrl(deps.config, record.id, signed !== null && theme.brand?.id === signed ? signed : null);
  return {
    status: 200,
    page: listingPage({
      record,
      theme,
      format,
      pageUrl,
      now: deps.clock.now(),
      appName,
      ask: brand?.takesLeads ? askFormFor(deps, record.id, theme.brand) : null,
    }),
  };
}
