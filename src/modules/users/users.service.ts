// The user record (spec §2.2) and the /users/self changes a user makes to themselves.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { toAgentRecord } from './agents.record.js';
import { formatLocalTime } from './local-time.js';
import { findUserRow, type UserRow } from './users.repository.js';
import type { Agent, UserRecord } from './users.schemas.js';

export interface LoadUserOptions {
  /** The brand the request acts in (brand context); defaults to the user's active brand. */
  brand?: string | null;
  /** The row, when bearer authentication already read it (`config.withUserRow`); otherwise it is queried. */
  row?: UserRow | null;
}

/** The wire record of a live user; 404 when the user does not exist or is deleted. One (prepared) query. */
export async function loadUserRecord(deps: Deps, userId: string, options: LoadUserOptions = {}): Promise<UserRecord> {
  const row = options.row ?? (await findUserRow(deps.database, userId));
  if (!row) throw errors.notFound('User');
  return toUserRecord(row, deps.clock.now(), options.brand);
}

export function toUserRecord(row: UserRow, now: Date, brand?: string | null): UserRecord {
  const activeBrand = row.active_brand_or_newest;
  const agents: Agent[] = row.agents.map(toAgentRecord);
  return {
    id: row.id,
    type: 'user',
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone_number: row.phone_number,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    address_id: row.address_id,
    cover_image_url: row.cover_image_url,
    profile_image_url: row.profile_image_url,
    cover_image_thumbnail_url: row.cover_image_thumbnail_url,
    profile_image_thumbnail_url: row.profile_image_thumbnail_url,
    user_status: row.user_status,
    email_confirmed: row.email_confirmed,
    phone_confirmed: row.phone_confirmed,
    timezone: row.timezone,
    user_type: row.user_type,
    is_shadow: row.is_shadow,
    personal_room: row.personal_room,
    brand: brand ?? activeBrand,
    active_brand: activeBrand,
    fake_email: row.fake_email,
    features: row.features,
    last_seen_at: row.last_seen_at,
    last_seen_type: row.last_seen_type,
    email_signature: row.email_signature,
    bio: row.bio,
    daily_enabled: row.daily_enabled,
    push_allowed: row.push_allowed,
    has_password: row.has_password,
    email_quota: row.email_quota,
    website: row.website,
    instagram: row.instagram,
    twitter: row.twitter,
    linkedin: row.linkedin,
    youtube: row.youtube,
    facebook: row.facebook,
    tiktok: row.tiktok,
    designation: row.designation,
    mfa_enabled: row.mfa_enabled,
    vendor_user_id: row.vendor_user_id,
    current_time: formatLocalTime(now, row.timezone),
    agents: agents.length === 0 ? null : agents,
    display_name: displayName(row),
    abbreviated_display_name: abbreviatedDisplayName(row),
    // There is no presence system: nobody is ever shown online.
    online_state: 'Offline',
  };
}

interface Names {
  first_name: string;
  last_name: string;
  email: string;
}

/** "Jane Doe"; the email when the user has no name. */
export function displayName(user: Names): string {
  const full = `${user.first_name.trim()} ${user.last_name.trim()}`.trim();
  return full === '' ? user.email : full;
}

/** "Jane D."; just the one name when the other is missing; the email when there is no name. */
export function abbreviatedDisplayName(user: Names): string {
  const first = user.first_name.trim();
  const last = user.last_name.trim();
  if (first && last) return `${first} ${[...last][0]}.`;
  return first || last || user.email;
}
