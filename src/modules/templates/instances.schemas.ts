// Wire shapes of template instances (spec 2.11; docs/templates.md).
import { Type, type Static } from '@sinclair/typebox';
import { FileRecord } from '../../files/files.schemas.js';
import { EpochSeconds, ExpansionQuery, Nullable, PagingQuery, Uuid } from '../../platform/schemas.js';
import { MediumText, TemplateRecord } from './templates.schemas.js';
import { MAX_HTML_BYTES } from './template-html.js';
import { MEDIUMS } from '../../render/mediums.js';

export const MAX_RECORDS_PER_INSTANCE = 50;

export const CreateInstanceBody = Type.Object({
  html: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_HTML_BYTES,
      description:
        'The client’s edited, final HTML (no template language); sanitised. Without it the template is rendered with the records.',
    }),
  ),
  listings: Type.Optional(
    Type.Array(Uuid, { maxItems: MAX_RECORDS_PER_INSTANCE, description: 'Listing ids; the first is `listing`' }),
  ),
  contacts: Type.Optional(
    Type.Array(Uuid, {
      maxItems: MAX_RECORDS_PER_INSTANCE,
      description: 'Contact ids of the brand (CRM ACL needed); the first is `contact`',
    }),
  ),
  deals: Type.Optional(
    Type.Array(Uuid, {
      maxItems: MAX_RECORDS_PER_INSTANCE,
      description: 'Deal ids the caller reaches (Deals ACL needed); the first is `deal`',
    }),
  ),
});
export type CreateInstanceBody = Static<typeof CreateInstanceBody>;

export const InstanceRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('template_instance'),
    template: Type.Union([Uuid, TemplateRecord], {
      description: 'The template id; the record with associations[]=template_instance.template',
    }),
    brand: Uuid,
    medium: Type.String(),
    html: Type.String(),
    file: Nullable(FileRecord),
    branch: Type.String({ description: 'A link to view the instance in the web app' }),
    created_by: Uuid,
    listings: Type.Array(Uuid),
    contacts: Type.Array(Uuid),
    deals: Type.Array(Uuid),
    unknown_variables: Type.Array(Type.String(), {
      description: 'Variables the template read that the records did not have (rendered empty)',
    }),
    render_status: Type.String({
      description:
        'html_only: the file is the HTML; rendered: file is the print/social file with a preview; failed: see render_note',
    }),
    render_note: Nullable(Type.String({ description: 'Why there is no rendered file, when there is none' })),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
  },
  { title: 'TemplateInstance' },
);
export type InstanceRecord = Static<typeof InstanceRecord>;

export const TemplateParams = Type.Object({ id: Uuid });
export const InstanceParams = Type.Object({ id: Uuid });
export const InstanceQuery = Type.Object({ ...ExpansionQuery });
export const ListInstancesQuery = Type.Object({
  mediums: Type.Optional(Type.Array(MediumText, { maxItems: MEDIUMS.length })),
  ...PagingQuery,
  ...ExpansionQuery,
});
export type ListInstancesQuery = Static<typeof ListInstancesQuery>;
