// Wire shapes of print campaigns (spec 2.11, 4.9; docs/print-campaigns.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, ExpansionQuery, Nullable, PagingQuery, Uuid, orderPattern } from '../../platform/schemas.js';
import { InstanceRecord } from '../templates/instances.schemas.js';
import { MEDIUMS } from '../../render/mediums.js';
import { MediumText } from '../templates/templates.schemas.js';

export const PRINT_CAMPAIGN_ORDER_KEYS = ['created_at', 'updated_at'] as const;
export type PrintCampaignOrderKey = (typeof PRINT_CAMPAIGN_ORDER_KEYS)[number];

export const PrintCampaignRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('print_campaign'),
    brand: Uuid,
    created_by: Uuid,
    template_instance: Type.Union([Uuid, InstanceRecord], {
      description: 'The instance id; the record with associations[]=print_campaign.template_instance',
    }),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
  },
  { title: 'PrintCampaign' },
);
export type PrintCampaignRecord = Static<typeof PrintCampaignRecord>;

export const BrandParams = Type.Object({ brand: Uuid });
export const CampaignParams = Type.Object({ brand: Uuid, id: Uuid });
export const CampaignQuery = Type.Object({ ...ExpansionQuery });

export const ListCampaignsQuery = Type.Object({
  user: Type.Optional({ ...Uuid, description: 'Only campaigns this user created' }),
  mediums: Type.Optional(Type.Array(MediumText, { maxItems: MEDIUMS.length })),
  order: Type.Optional(
    Type.String({
      maxLength: 40,
      pattern: orderPattern(PRINT_CAMPAIGN_ORDER_KEYS),
      description:
        '+ or - and created_at or updated_at; default -created_at (an unencoded + arrives as a space and means +)',
    }),
  ),
  ...PagingQuery,
  ...ExpansionQuery,
});
export type ListCampaignsQuery = Static<typeof ListCampaignsQuery>;

export const CampaignBody = Type.Object({ templateInstance: Uuid });
export type CampaignBody = Static<typeof CampaignBody>;

export const StatsQuery = Type.Object({
  user: Type.Optional({ ...Uuid, description: 'Only campaigns this user created' }),
});

export const PrintCampaignStats = Type.Object(
  { type: Type.Literal('print_campaign_stats') },
  {
    additionalProperties: Type.String({ description: 'Campaigns of this medium, as a decimal string' }),
    title: 'PrintCampaignStats',
    description: 'One key per medium with at least one campaign',
  },
);
