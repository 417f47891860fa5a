// Wire shapes of the boundaries catalogue (spec 2.8, 4.6).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, ExpansionQuery, Nullable, PagingQuery, Uuid } from '../../platform/schemas.js';
import { BOUNDARY_TYPES } from './boundaries.model.js';

export const BoundaryTypeSchema = Type.Union(BOUNDARY_TYPES.map((t) => Type.Literal(t)));

// Coordinates are typed loosely on purpose: a country's rings hold thousands of positions, and a precise nested
// schema (or a Polygon | MultiPolygon union, which the serializer resolves by validating) makes every response slow.
export const GeometrySchema = Type.Object(
  {
    type: Type.String({ description: '"Polygon" or "MultiPolygon"' }),
    coordinates: Type.Array(Type.Any(), {
      description:
        'Polygon: rings; MultiPolygon: polygons of rings. Positions are [longitude, latitude]; each ring repeats its first position last.',
    }),
  },
  { description: 'GeoJSON geometry (RFC 7946)' },
);

export const Boundary = Type.Object({
  type: Type.Literal('boundary'),
  id: Uuid,
  external_id: Type.String(),
  boundary_type: Type.String(),
  title: Type.String(),
  overridden_title: Nullable(Type.String()),
  country: Type.String({ description: 'ISO 3166-1 alpha-2 country code; "" when unknown' }),
  state: Type.String({ description: 'state or province name; "" when none (a country)' }),
  subtitle: Type.String({ description: '"State, CC"' }),
  aliases: Type.String(),
  population: Nullable(Type.Number()),
  // Optional: search results drop it with omit[]=boundary.geometry (and then never load it).
  geometry: Type.Optional(GeometrySchema),
  center: Type.Object({
    type: Type.Literal('Point'),
    coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }),
  }),
  searchable: Type.String({ description: 'text-search vector' }),
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
  deleted_at: Nullable(EpochSeconds),
});
export type BoundaryRecord = Static<typeof Boundary>;

export const BoundarySearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'name or code, matched by word prefix ("Dal", "TX")' })),
  boundary_type: Type.Optional(BoundaryTypeSchema),
  country: Type.Optional(Type.String({ maxLength: 3, description: 'ISO country code' })),
  state: Type.Optional(Type.String({ maxLength: 100, description: 'state name' })),
  ...PagingQuery,
  ...ExpansionQuery,
});
export type BoundarySearchQueryType = Static<typeof BoundarySearchQuery>;

export const BoundaryParams = Type.Object({ id: Uuid });
