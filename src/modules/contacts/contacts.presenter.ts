// A contact row as the API shows it (spec §2.7), with the associations a request asks for.
import type { Deps } from '../../platform/deps.js';
import type { TriggerRecord } from '../triggers/triggers.schemas.js';
import { epochSeconds } from '../../lib/clock.js';
import { partnerNameOf } from './contacts.derive.js';
import type { ContactRow } from './contacts.repository.js';
import { ADDRESS_KEYS, type ContactRecord } from './contacts.schemas.js';
import type { ContactAddress } from './contacts.columns.js';

export function presentContact(row: ContactRow): ContactRecord {
  const { emails, phone_numbers } = row;
  return {
    id: row.id,
    type: 'contact',
    display_name: row.display_name,
    partner_name: partnerNameOf(row),
    brand: row.brand,
    brand_id: row.brand,
    user_id: row.user_id,
    sort_field: row.sort_field,
    last_touch: epochSeconds(row.last_touch),
    last_touch_action: row.last_touch_action,
    next_touch: epochSeconds(row.next_touch),
    touch_freq: row.touch_freq,
    ios_address_book_id: row.ios_address_book_id,
    android_address_book_id: row.android_address_book_id,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
    created_for: row.created_for,
    updated_for: row.updated_for,
    deleted_for: row.deleted_for,
    title: row.title,
    first_name: row.first_name,
    partner_first_name: row.partner_first_name,
    middle_name: row.middle_name,
    last_name: row.last_name,
    partner_last_name: row.partner_last_name,
    marketing_name: row.marketing_name,
    nickname: row.nickname,
    email: emails[0] ?? null,
    primary_email: emails[0] ?? null,
    emails,
    parked: row.parked,
    unsubscribed: row.unsubscribed,
    partner_email: row.partner_email,
    phone_number: phone_numbers[0] ?? null,
    primary_phone_number: phone_numbers[0] ?? null,
    phone_numbers,
    company: row.company,
    birthday: row.birthday,
    home_anniversary: row.home_anniversary,
    wedding_anniversary: row.wedding_anniversary,
    profile_image_url: row.profile_image_url,
    cover_image_url: row.cover_image_url,
    job_title: row.job_title,
    source_type: row.source_type,
    source: row.source,
    website: row.website,
    tags: row.tags,
    address: row.address.map(presentAddress),
  };
}

/** Spec §2.7 lists every key of an address object: each is present, null where the stored address has none. */
function presentAddress(address: ContactAddress): ContactRecord['address'][number] {
  const out = {} as Record<(typeof ADDRESS_KEYS)[number], string | null>;
  for (const key of ADDRESS_KEYS) out[key] = address[key] ?? null;
  return out;
}

/**
 * The associations of a contact: `contact.triggers` (and within them `trigger.campaign`), one query per page. The
 * triggers module above answers through deps.moduleHooks (contacts import nothing of triggers but the record's shape).
 */
export const CONTACT_ASSOCIATIONS = {
  'contact.triggers': {
    field: 'triggers',
    load: (deps: Pick<Deps, 'db' | 'moduleHooks'>, contactIds: string[], associations: Set<string>) =>
      deps.moduleHooks.triggersOfContacts(deps.db, contactIds, associations) as Promise<Map<string, TriggerRecord[]>>,
  },
} as const;

export async function presentContacts(
  deps: Pick<Deps, 'db' | 'moduleHooks'>,
  rows: ContactRow[],
  associations: Set<string>,
): Promise<ContactRecord[]> {
  const records = rows.map(presentContact);
  for (const [name, association] of Object.entries(CONTACT_ASSOCIATIONS)) {
    if (!associations.has(name)) continue;
    const loaded = await association.load(
      deps,
      rows.map((r) => r.id),
      associations,
    );
    for (const record of records) record[association.field] = loaded.get(record.id) ?? [];
  }
  return records;
}
