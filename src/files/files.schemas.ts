// Wire shape of a file record (spec 2.11).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, Uuid } from '../platform/schemas.js';

export const FileRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('file'),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
    created_by: Nullable(Uuid),
    path: Type.String({ description: 'The storage key (content address)' }),
    name: Type.String(),
    public: Type.Boolean(),
    mime: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    url: Type.String({ description: 'Signed; expires after 24 hours (public files: unsigned)' }),
    preview_url: Nullable(Type.String({ description: 'A PNG preview, signed like url; null until one is rendered' })),
  },
  { title: 'File' },
);
export type FileRecord = Static<typeof FileRecord>;

export const FileUrlParams = Type.Object({
  id: Uuid,
  variant: Type.Union([Type.Literal('file'), Type.Literal('preview')]),
});
export const FileUrlQuery = Type.Object({
  expires: Type.Optional(Type.Integer({ minimum: 0, maximum: 99_999_999_999, description: 'Epoch seconds' })),
  signature: Type.Optional(Type.String({ maxLength: 128, pattern: '^[0-9a-fA-F]*$' })),
});
