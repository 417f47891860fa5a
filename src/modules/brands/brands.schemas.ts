// Wire shapes of the brand profile (decisions §19): the public brand record, its palette, the roster row.
import { Type, type Static } from '@sinclair/typebox';
import { PagingQuery, Uuid } from '../../platform/schemas.js';
import { UserRecord } from '../users/users.schemas.js';

export const BrandParams = Type.Object({ brand: Type.String({ format: 'uuid' }) });

export const MarketingPalette = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'Colours (`*-color`: hex), logos (`*logo*`, `*-url`, `*-image`: http(s) URLs), `address` {full, line1, line2, city, state, postcode, country}, ' +
    '`phone_number` and other display strings. Keys a brand does not set come from its nearest ancestor that does.',
  examples: [
    {
      'button-bg-color': '#0b5cad',
      'container-logo-wide': 'https://example.com/logo-wide.png',
      phone_number: '+12145550100',
    },
  ],
});

export const BrandRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('brand'),
    name: Type.String(),
    brand_type: Type.String({ description: 'Brokerage, Region, Office, Team, Personal or Other' }),
    parent: Type.Unknown({
      description:
        'The parent brand id (or null); with `associations[]=brand.parent` (or brand.parents) the parent record, recursively up the chain',
    }),
    parents: Type.Optional(
      Type.Array(Uuid, { description: 'With `associations[]=brand.parents`: ancestor ids, nearest first' }),
    ),
    settings: Type.Optional(
      Type.Object({ marketing_palette: MarketingPalette }, { description: 'With `associations[]=brand.settings`' }),
    ),
  },
  {
    title: 'Brand',
    description: 'The public profile of a brand: nothing private (members, emails, other settings) is ever in it',
  },
);
export type BrandRecord = Static<typeof BrandRecord>;

export const BrandQuery = Type.Object({
  associations: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
  omit: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
});

export const RosterQuery = Type.Object({ ...BrandQuery.properties, ...PagingQuery });
export type RosterQuery = Static<typeof RosterQuery>;

/** A roster member: the other users' record without account-security fields. */
export const MemberRecord = Type.Omit(UserRecord, ['has_password', 'mfa_enabled', 'mfa_url', 'mfa_qr_code'], {
  title: 'Member',
});

export const RosterRow = Type.Composite(
  [
    MemberRecord,
    Type.Object({
      brands: Type.Array(BrandRecord, { description: 'The brands of the requested subtree the user is a member of' }),
      user: Type.Object(MemberRecord.properties, {
        description: 'The same record again: existing clients read the member under `user`',
      }),
    }),
  ],
  { title: 'RosterMember' },
);
export type RosterRow = Static<typeof RosterRow>;

export const PaletteBody = MarketingPalette;
