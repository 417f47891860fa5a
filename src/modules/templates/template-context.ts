// The records a template reads (docs/templates.md): the user, the brand (name, palette, logos), listings,
// contacts and deals named by the request. Each record is checked: a listing that does not exist, a contact that
// is not the brand's or that the user cannot see (CRM), or a deal the user cannot reach (Deals), is a 404, as if
// it did not exist.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { getBrandProfile } from '../brands/index.js';
import { getContact } from '../contacts/index.js';
import { getDeal } from '../deals/index.js';
import { loadListingRecords } from '../listings/index.js';
import { findTemplateUser } from './instances.repository.js';
import { listingLinkVariables } from './listing-link.variables.js';

function paletteOf(palette: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...palette };
  for (const [key, value] of Object.entries(palette)) out[key.replace(/-/g, '_')] = value;
  return out;
}

export async function templateContext(
  deps: Deps,
  actor: Actor,
  brand: string,
  records: { listings: string[]; contacts: string[]; deals: string[] },
): Promise<Record<string, unknown>> {
  const user = actor.userId ? await findTemplateUser(deps.db, actor.userId) : undefined;
  const profile = await getBrandProfile(deps, brand, { parentRecords: false, parentIds: false, settings: true });
  const palette = paletteOf((profile.settings?.marketing_palette ?? {}) as Record<string, unknown>);
  const listings = await loadListingRecords(deps.db, records.listings, deps.clock.now());
  if (listings.length !== new Set(records.listings).size) throw errors.notFound('Listing');
  const contacts = [];
  for (const id of records.contacts) {
    const contact = await getContact(deps, actor, id, new Set());
    if (contact.brand !== brand) throw errors.notFound('Contact');
    contacts.push(contact);
  }
  const deals = [];
  for (const id of records.deals) deals.push(await getDeal(deps, actor, id, new Set(['deal.listing'])));
  return {
    user: user ? { ...user, display_name: [user.first_name, user.last_name].filter(Boolean).join(' ') } : undefined,
    brand: {
      id: profile.id,
      name: profile.name,
      palette,
      logo: palette.container_logo_wide,
      inverted_logo: palette.inverted_logo_wide,
      address: palette.address,
      phone_number: palette.phone_number,
    },
    listing: listings[0],
    ...(await listingLinkVariables(deps.config, listings[0], profile.id)),
    listings,
    contact: contacts[0],
    contacts,
    deal: deals[0],
    deals,
  };
}
