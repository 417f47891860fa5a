// Kysely table types. Each feature module declares the tables it owns in its own `<feature>.tables.ts`
// and adds them to DB here; the foundation tables are below.
import type { ColumnType, Generated } from 'kysely';
import type { WebTables } from '../web/web.tables.js';
import type { BoundariesTables } from '../modules/boundaries/boundaries.tables.js';
import type { ListingsTables } from '../modules/listings/listings.tables.js';
import type { ContactsTables } from '../modules/contacts/contacts.tables.js';
import type { EventsTables } from '../events/events.tables.js';
import type { SavedSearchTables } from '../modules/saved-searches/saved-searches.tables.js';
import type { WebhooksTables } from '../modules/webhooks/webhooks.tables.js';
import type { MailTables } from '../mail/mail.tables.js';
import type { EmailsTables } from '../modules/emails/emails.tables.js';
import type { NotificationsTables } from '../modules/notifications/notifications.tables.js';
import type { PrintTables } from '../modules/templates/templates.tables.js';
import type { DealsTables } from '../modules/deals/deals.tables.js';
import type { ShowingsTables } from '../modules/showings/showings.tables.js';
import type { ExtmailTables } from '../modules/extmail/extmail.tables.js';
import type { TriggersTables } from '../modules/triggers/triggers.tables.js';

/** A timestamptz column: read as Date, written as Date or an SQL expression string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A nullable instant that inserts may leave out (it starts null). */
export type LaterTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** A nullable bytea that inserts may leave out. */
export type LaterBytes = ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;

export interface BrandsTable {
  id: Generated<string>;
  parent: string | null;
  name: string;
  brand_type: Generated<string>;
  /** The brand's own palette keys (modules/brands/palette.ts); inherited keys are merged when read. */
  marketing_palette: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface BrandHostnamesTable {
  hostname: string;
  brand: string;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<string>;
  username: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: string;
  phone_number: string | null;
  password_hash: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
  address_id: string | null;
  cover_image_url: string | null;
  profile_image_url: string | null;
  cover_image_thumbnail_url: string | null;
  profile_image_thumbnail_url: string | null;
  user_status: Generated<string>;
  email_confirmed: Generated<boolean>;
  phone_confirmed: Generated<boolean>;
  timezone: Generated<string>;
  user_type: Generated<string>;
  is_shadow: Generated<boolean | null>;
  personal_room: Generated<string>;
  active_brand: string | null;
  fake_email: string | null;
  features: unknown[] | null;
  last_seen_at: Timestamp | null;
  last_seen_type: string | null;
  email_signature: Generated<string>;
  bio: Generated<string>;
  daily_enabled: Generated<boolean>;
  push_allowed: Generated<boolean>;
  email_quota: Generated<number>;
  website: string | null;
  instagram: string | null;
  twitter: string | null;
  linkedin: string | null;
  youtube: string | null;
  facebook: string | null;
  tiktok: string | null;
  designation: string | null;
  vendor_user_id: string | null;
  mfa_enabled: Generated<boolean>;
  mfa_secret: string | null;
  mfa_last_step: number | null;
}

export interface MembershipsTable {
  id: Generated<string>;
  brand: string;
  user: string;
  role: Generated<string>;
  acl: string[];
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface AgentsTable {
  id: Generated<string>;
  mls: string;
  mlsid: string;
  mls_unique_id: string;
  email: string | null;
  fax: string | null;
  full_name: string | null;
  first_name: string | null;
  last_name: string | null;
  middle_name: string | null;
  phone_number: string | null;
  work_phone: string | null;
  nar_number: string | null;
  nrds: string | null;
  license_number: string | null;
  designation: string | null;
  generational_name: string | null;
  office_mui: string | null;
  office_mlsid: string | null;
  office_id: string | null;
  status: Generated<string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface UserAgentsTable {
  user: string;
  agent: string;
}

export type ClientKind = 'first_party' | 'partner' | 'public';

export interface OAuthClientsTable {
  id: Generated<string>;
  client_id: string;
  secret_hash: string | null;
  name: string;
  kind: ClientKind;
  redirect_uris: string[];
  grants: string[];
  /** An imported secret below the strength of generated ones (`--allow-weak-secret`). */
  weak_secret: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface TokenFamiliesTable {
  id: Generated<string>;
  user: string | null;
  client: string;
  brand: string | null;
  grant_type: string;
  mfa_validated: Generated<boolean>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
}

export interface AccessTokensTable {
  token_hash: Buffer;
  family: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: LaterTimestamp;
}

export interface RefreshTokensTable {
  token_hash: Buffer;
  family: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  rotated_at: Timestamp | null;
  access_token_hash: LaterBytes;
  replaced_by: LaterBytes;
  replayed_at: LaterTimestamp;
}

export interface AuthorizationCodesTable {
  code_hash: Buffer;
  client: string;
  user: string;
  brand: string;
  redirect_uri: string;
  code_challenge: string | null;
  mfa_validated: Generated<boolean>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  family: string | null;
}

export interface AttemptCountersTable {
  key: string;
  window_started_at: Timestamp;
  failures: Generated<number>;
  consecutive: Generated<number>;
  blocked_until: Timestamp | null;
  updated_at: UpdatedAt;
}

export interface FoundationTables {
  brands: BrandsTable;
  brand_hostnames: BrandHostnamesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  agents: AgentsTable;
  user_agents: UserAgentsTable;
  oauth_clients: OAuthClientsTable;
  token_families: TokenFamiliesTable;
  access_tokens: AccessTokensTable;
  refresh_tokens: RefreshTokensTable;
  authorization_codes: AuthorizationCodesTable;
  attempt_counters: AttemptCountersTable;
  first_start_steps: FirstStartStepsTable;
  rate_limit_windows: RateLimitWindowsTable;
}

export interface RateLimitWindowsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

export interface FirstStartStepsTable {
  name: string;
  started_at: Timestamp;
  completed_at: LaterTimestamp;
}

// Feature modules add their `<Feature>Tables` here.
export type DB = FoundationTables &
  WebTables &
  BoundariesTables &
  ListingsTables &
  EventsTables &
  ContactsTables &
  SavedSearchTables &
  WebhooksTables &
  MailTables &
  EmailsTables &
  NotificationsTables &
  PrintTables &
  DealsTables &
  ShowingsTables &
  ExtmailTables &
  TriggersTables;
