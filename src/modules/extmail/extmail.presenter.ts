// A credential as the API shows it (spec §2.4): ISO 8601 timestamps (decisions §1), never a token.
import type { Static } from '@sinclair/typebox';
import type { CredentialRow } from './extmail.repository.js';
import type { ExtmailJob } from './extmail.schemas.js';

export type JobRecord = Static<typeof ExtmailJob>;

export interface CredentialRecord {
  type: 'extmail_credential';
  id: string;
  user: string;
  brand: string;
  email: string;
  remote_id: string;
  display_name: string;
  first_name: string | null;
  last_name: string | null;
  photo: string | null;
  scope: string[];
  scope_summary: string[];
  revoked: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  extmail_calendar: null;
  send_email_after: string | null;
  cfolders_sync_token: string | null;
  people_apis_enabled: boolean;
  contacts_sync_token: string | null;
  jobs: JobRecord[] | null;
  profile_image_url: string;
}

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

/** The credential's sync runs as `jobs` (the latest run; null before the first). */
export function jobsOf(row: CredentialRow): JobRecord[] | null {
  if (!row.sync_status) return null;
  return [
    {
      type: 'extmail_job',
      job_name: 'sync',
      status: row.sync_status,
      queued_at: iso(row.sync_queued_at),
      started_at: iso(row.sync_started_at),
      finished_at: iso(row.sync_finished_at),
      error: row.sync_error,
    },
  ];
}

export function presentCredential(row: CredentialRow): CredentialRecord {
  return {
    type: 'extmail_credential',
    id: row.id,
    user: row.user,
    brand: row.brand,
    email: row.email,
    remote_id: row.remote_id,
    display_name: row.display_name,
    first_name: row.first_name,
    last_name: row.last_name,
    photo: row.photo,
    scope: row.scope ?? [],
    scope_summary: row.scope_summary ?? [],
    revoked: row.revoked,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    deleted_at: iso(row.deleted_at),
    // Calendars are not linked by this server (no calendar sync).
    extmail_calendar: null,
    send_email_after: iso(row.send_email_after),
    cfolders_sync_token: row.cfolders_sync_token,
    // Google's People API; a Microsoft mailbox reads contacts through Graph.
    people_apis_enabled: false,
    contacts_sync_token: row.contacts_sync_token,
    jobs: jobsOf(row),
    profile_image_url: row.photo ?? '',
  };
}
