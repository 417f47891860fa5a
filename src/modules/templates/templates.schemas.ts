// Wire shapes of templates (docs/templates.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, PagingQuery, Uuid } from '../../platform/schemas.js';
import { MAX_HTML_BYTES } from './template-html.js';
import { MEDIUMS } from '../../render/mediums.js';

const MEDIUM_NOTE = `One of ${MEDIUMS.join(', ')}`;
export const MediumText = Type.Unsafe<string>({ type: 'string', enum: [...MEDIUMS], description: MEDIUM_NOTE });
export const TEMPLATE_TYPE_PATTERN = '^[A-Za-z][A-Za-z0-9]{0,49}$';

export const TemplateRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('template'),
    name: Type.String(),
    brand: Nullable(Uuid),
    global: Type.Boolean({ description: 'A shipped template every brand sees' }),
    medium: Type.String({ description: MEDIUM_NOTE }),
    template_type: Type.String({ description: 'e.g. JustListed, JustSold, OpenHouse, Birthday, Branding' }),
    inputs: Type.Array(Type.String(), { description: 'Records it reads: listing, contact, user' }),
    variables: Type.Array(Type.String(), { description: 'Variable paths it reads, e.g. listing.price' }),
    html: Type.String(),
    created_by: Nullable(Uuid),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
  },
  { title: 'Template' },
);
export type TemplateRecord = Static<typeof TemplateRecord>;

export const TemplateFilterQuery = Type.Object({
  mediums: Type.Optional(Type.Array(MediumText, { maxItems: MEDIUMS.length })),
  template_types: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50 })),
  ...PagingQuery,
});
export type TemplateFilterQuery = Static<typeof TemplateFilterQuery>;

export const BrandParams = Type.Object({ brand: Uuid });

export const CreateTemplateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  medium: MediumText,
  template_type: Type.String({ pattern: TEMPLATE_TYPE_PATTERN, description: 'e.g. JustListed, OpenHouse' }),
  html: Type.String({
    minLength: 1,
    maxLength: MAX_HTML_BYTES,
    description: 'A page in the template language; sanitised (docs/templates.md), at most 2 MiB',
  }),
});
export type CreateTemplateBody = Static<typeof CreateTemplateBody>;
