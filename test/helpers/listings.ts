// Test support for the listings tests: feed tokens and a complete, valid listing record.
import type { Deps } from '../../src/platform/deps.js';
import { issueNewFamily } from '../../src/modules/auth/tokens.service.js';
import { bearer, createClient } from './factories.js';

/** Authorization headers of a client-credentials token of a new client of this kind. */
export async function clientHeaders(deps: Deps, kind: 'first_party' | 'partner' = 'first_party') {
  const client = await createClient(deps, kind);
  const token = await issueNewFamily(deps.db, deps.clock, {
    user: null,
    client: client.id,
    brand: null,
    grantType: 'client_credentials',
    mfaValidated: false,
    withRefreshToken: false,
  });
  return bearer(token);
}

/** A full record as a feed sends it; `fields` override the top level. */
export function sampleListing(mlsNumber: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mls_number: mlsNumber,
    status: 'Active',
    price: 450_000,
    original_price: 475_000,
    list_date: '2026-10-01T15:00:00Z',
    currency: 'USD',
    office_exclusive: false,
    content: 'Charming bungalow with a large backyard and a renovated kitchen.',
    list_agent_mui: 'AG-1',
    co_list_agent_mui: 'AG-2',
    selling_agent_mui: null,
    list_office_mls_id: 'OF-1',
    gallery_image_urls: ['https://img.example.com/1.jpg', 'https://img.example.com/2.jpg'],
    open_houses: [
      { start_time: '2026-11-28T16:00:00Z', end_time: '2026-11-28T18:00:00Z', description: 'Saturday tour' },
    ],
    property: {
      property_type: 'Residential',
      property_subtype: 'RES-Single Family',
      bedroom_count: 3,
      full_bathroom_count: 2,
      half_bathroom_count: 1,
      square_meters: 171.87,
      lot_square_meters: 650,
      year_built: 1998,
      parking_spaces_covered_total: 2,
      parking_spaces_uncovered_total: 1,
      pool: true,
      pets: null,
      features: { interior_features: ['Fireplace'] },
      address: {
        street_number: '4521',
        street_name: 'Maple Ave',
        city: 'Dallas',
        state: 'TX',
        postal_code: '75219',
        country: 'US',
        location: { latitude: 32.81, longitude: -96.81 },
      },
    },
    ...fields,
  };
}
