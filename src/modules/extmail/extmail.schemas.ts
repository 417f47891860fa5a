// Request and response schemas of /users/self/extmail (spec §2.4, §4.3).
import { Type } from '@sinclair/typebox';
import { Nullable, Uuid } from '../../platform/schemas.js';
import { LINK_SCOPES } from './scopes.js';
import { MAX_REDIRECT_LENGTH } from './redirect.js';

export const CreateLinkBody = Type.Object({
  redirect: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_REDIRECT_LENGTH,
      description:
        'Where the browser returns after the provider (this server’s hosts or a redirect URI registered for your client); default WEB_URL',
    }),
  ),
  body: Type.Optional(
    Type.Array(Type.Union(LINK_SCOPES.map((s) => Type.Literal(s))), {
      maxItems: 10,
      description: 'Requested scopes (the published shape sends them under `body`); default all three',
    }),
  ),
});

export const AuthLink = Type.Object({
  type: Type.Literal('extmail_auth_link'),
  url: Type.String({ description: 'The Microsoft identity platform authorize address (v2.0, code flow with PKCE)' }),
  redirect: Type.String(),
});

const Iso = Type.String({ format: 'date-time' });

export const ExtmailJob = Type.Object({
  type: Type.Literal('extmail_job'),
  job_name: Type.String(),
  status: Type.String(),
  queued_at: Nullable(Iso),
  started_at: Nullable(Iso),
  finished_at: Nullable(Iso),
  error: Nullable(Type.String()),
});

export const CredentialRecord = Type.Object({
  type: Type.Literal('extmail_credential'),
  id: Uuid,
  user: Uuid,
  brand: Uuid,
  email: Type.String(),
  remote_id: Type.String(),
  display_name: Type.String(),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  photo: Nullable(Type.String({ description: 'The account photo as a data: URL' })),
  scope: Type.Array(Type.String()),
  scope_summary: Type.Array(Type.String()),
  revoked: Type.Boolean({ description: 'The provider refused the stored grant: link the mailbox again' }),
  created_at: Iso,
  updated_at: Iso,
  deleted_at: Nullable(Iso),
  extmail_calendar: Type.Null(),
  send_email_after: Nullable(Iso),
  cfolders_sync_token: Nullable(Type.String()),
  people_apis_enabled: Type.Boolean(),
  contacts_sync_token: Nullable(Type.String()),
  jobs: Nullable(Type.Array(ExtmailJob)),
  profile_image_url: Type.String(),
});

export const CredentialParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Credential id' }) });

export const AssociationsQuery = Type.Object({
  associations: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description: 'Accepted; a credential has no associations',
    }),
  ),
});

/** What the callback adds to the redirect when linking failed (the linked page shows it). */
export const LinkedQuery = Type.Object({
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const CallbackQuery = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 4096 })),
  code: Type.Optional(Type.String({ maxLength: 8192 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 2000 })),
});
