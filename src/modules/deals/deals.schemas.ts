// Wire shapes of deals (decisions §17, docs/deals.md): the write bodies, the record, the filter body existing
// clients send. Context values are checked against the catalogue in deals.context.ts (so each names its key).
import { Type, type Static } from '@sinclair/typebox';
import {
  EpochSeconds,
  ExpansionQuery,
  Limit,
  Nullable,
  PagingQuery,
  Start,
  Uuid,
  optionalNullable as optional,
} from '../../platform/schemas.js';

export const DEAL_TYPES = ['Buying', 'Selling'] as const;

/** Statuses by the groups of `POST /deals/filter` (decisions §17). */
export const STATUS_GROUPS = {
  is_active: ['Active', 'Coming Soon'],
  is_pending: ['Pending', 'Active Contingent', 'Active Option'],
  is_closed: ['Closed', 'Sold', 'Leased'],
  is_archived: ['Archived', 'Withdrawn', 'Cancelled'],
} as const;
export type StatusGroup = keyof typeof STATUS_GROUPS;
export const DEAL_STATUSES = Object.values(STATUS_GROUPS).flat();
export type DealStatus = (typeof DEAL_STATUSES)[number];

export const ROLE_NAMES = [
  'Buyer',
  'Seller',
  'Tenant',
  'Landlord',
  'BuyerAgent',
  'SellerAgent',
  'CoBuyerAgent',
  'CoSellerAgent',
  'BuyerReferral',
  'SellerReferral',
  'BuyerLawyer',
  'SellerLawyer',
  'Lender',
  'Title',
  'Inspector',
  'Appraiser',
  'Other',
] as const;

/** Columns `$order` may name (a `deals.` prefix, as older clients send it, is accepted). */
export const DEAL_ORDER_KEYS = [
  'created_at',
  'updated_at',
  'title',
  'status',
  'deal_type',
  'list_price',
  'closing_date',
] as const;
export type DealOrderKey = (typeof DEAL_ORDER_KEYS)[number];

const Text = (maxLength: number) => Type.String({ maxLength });
const Status = Type.Unsafe<DealStatus>({
  type: 'string',
  enum: DEAL_STATUSES,
  description: `One of ${DEAL_STATUSES.join(', ')}`,
});
const DealType = Type.Unsafe<(typeof DEAL_TYPES)[number]>({ type: 'string', enum: DEAL_TYPES });
const ContextInput = Type.Record(
  Type.String({ maxLength: 100 }),
  Type.Union([Type.Number(), Type.String(), Type.Null()]),
  {
    description:
      'Key → number, YYYY-MM-DD date or text, from the closed catalogue of docs/deals.md; null removes a key',
  },
);

export const RoleInput = Type.Object({
  role: Type.Unsafe<(typeof ROLE_NAMES)[number]>({ type: 'string', enum: ROLE_NAMES }),
  legal_first_name: optional(Text(200)),
  legal_last_name: optional(Text(200)),
  email: optional(Type.String({ format: 'email', maxLength: 254 })),
  phone_number: optional(Text(40)),
  contact: optional(Uuid),
  user: optional(Uuid),
});
export type RoleInput = Static<typeof RoleInput>;

export const CreateDealBody = Type.Object({
  deal_type: DealType,
  property_type: Type.String({ minLength: 1, maxLength: 100 }),
  title: optional(Text(300)),
  listing: optional(Uuid),
  status: Type.Optional(Status),
  context: Type.Optional(ContextInput),
  roles: Type.Optional(Type.Array(RoleInput, { maxItems: 50 })),
});
export type CreateDealBody = Static<typeof CreateDealBody>;

export const UpdateDealBody = Type.Object({
  deal_type: Type.Optional(DealType),
  property_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  title: optional(Text(300)),
  listing: optional(Uuid),
  status: Type.Optional(Status),
  context: Type.Optional(ContextInput),
});
export type UpdateDealBody = Static<typeof UpdateDealBody>;

export const DealRole = Type.Object({
  id: Uuid,
  type: Type.Literal('deal_role'),
  role: Type.String(),
  legal_first_name: Nullable(Type.String()),
  legal_last_name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
  contact: Nullable(Uuid),
  user: Nullable(Uuid),
  created_at: EpochSeconds,
});

const BrandSummary = Type.Object({
  id: Uuid,
  type: Type.Literal('brand'),
  name: Type.String(),
  brand_type: Type.String(),
  parent: Nullable(Uuid),
});
const ListingSummary = Type.Object({
  id: Uuid,
  type: Type.Literal('listing'),
  mls: Type.String(),
  mls_number: Type.String(),
  status: Type.String(),
  price: Nullable(Type.Number()),
  address: Nullable(Type.String()),
  deleted_at: Nullable(EpochSeconds),
});
const UserSummary = Type.Object({
  id: Uuid,
  type: Type.Literal('user'),
  first_name: Type.String(),
  last_name: Type.String(),
  display_name: Type.String(),
  email: Type.String(),
  deleted_at: Nullable(EpochSeconds),
});

export const DealRecord = Type.Object({
  id: Uuid,
  type: Type.Literal('deal'),
  brand: Type.Union([Uuid, BrandSummary], { description: 'The brand id; the brand with associations[]=deal.brand' }),
  deal_type: Type.String(),
  property_type: Type.String(),
  title: Type.String(),
  listing: Nullable(
    Type.Union([Uuid, ListingSummary], { description: 'The listing id; its summary with associations[]=deal.listing' }),
  ),
  status: Type.String(),
  is_active: Type.Boolean(),
  is_pending: Type.Boolean(),
  is_closed: Type.Boolean(),
  is_archived: Type.Boolean(),
  context: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])),
  roles: Type.Array(DealRole),
  created_by: Nullable(
    Type.Union([Uuid, UserSummary], { description: 'The user id; the user with associations[]=deal.created_by' }),
  ),
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
  deleted_at: Nullable(EpochSeconds),
});
export type DealRecord = Static<typeof DealRecord>;

export const AddRolesBody = Type.Object({ roles: Type.Array(RoleInput, { minItems: 1, maxItems: 50 }) });

export const DealParams = Type.Object({ id: Uuid });
export const DealRoleParams = Type.Object({
  id: Uuid,
  role: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'A role id, or a role name (removes every role of that name)',
  }),
});
export const DealQuery = Type.Object({ ...ExpansionQuery });

export const DEFAULT_FILTER_LIMIT = 300;

/**
 * `[column, direction]`: a tuple in JSON Schema 2020-12 form (`prefixItems`, exactly two items), as OpenAPI 3.1 and
 * the request validator (platform/validation.ts) read it. TypeBox's Tuple writes the draft-07 array form of `items`.
 */
const OrderPair = Type.Unsafe<[string, 'ASC' | 'DESC' | 'asc' | 'desc']>({
  type: 'array',
  prefixItems: [
    { type: 'string', enum: [...DEAL_ORDER_KEYS, ...DEAL_ORDER_KEYS.map((key) => `deals.${key}`)] },
    { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] },
  ],
  minItems: 2,
  maxItems: 2,
});

export const FilterDealsBody = Type.Object({
  brand: Type.Optional(Uuid),
  query: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(
    Type.Object({
      is_active: Type.Optional(Type.Boolean()),
      is_pending: Type.Optional(Type.Boolean()),
      is_closed: Type.Optional(Type.Boolean()),
      is_archived: Type.Optional(Type.Boolean()),
    }),
  ),
  deal_type: Type.Optional(DealType),
  $order: Type.Optional(OrderPair),
  start: Start({ default: 0 }),
  limit: Limit({ default: DEFAULT_FILTER_LIMIT }),
});
export type FilterDealsBody = Static<typeof FilterDealsBody>;

export const ListDealsQuery = Type.Object({
  ...PagingQuery,
  limit: Limit({ default: DEFAULT_FILTER_LIMIT }),
  ...ExpansionQuery,
});
export type ListDealsQuery = Static<typeof ListDealsQuery>;
