// Kysely type of the contacts table (migration 2026-11-23T2011-contacts).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/types.js';

/** tsvector: written as an SQL expression, never read by the API. */
type TsVector = ColumnType<string, string | undefined, string>;
/** An address of a contact (spec §2.7): every key optional. */
export interface ContactAddress {
  city?: string | null;
  full?: string | null;
  name?: string | null;
  type?: string | null;
  extra?: string | null;
  line1?: string | null;
  line2?: string | null;
  state?: string | null;
  country?: string | null;
  postcode?: string | null;
}

export interface ContactsTable {
  id: Generated<string>;
  brand: string;
  user_id: string | null;
  title: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  nickname: string | null;
  marketing_name: string | null;
  partner_first_name: string | null;
  partner_last_name: string | null;
  partner_email: string | null;
  company: string | null;
  job_title: string | null;
  emails: string[];
  email_keys: string[];
  phone_numbers: string[];
  birthday: string | null;
  home_anniversary: string | null;
  wedding_anniversary: string | null;
  profile_image_url: string | null;
  cover_image_url: string | null;
  website: string[];
  tags: string[];
  address: ColumnType<ContactAddress[], string, string>;
  source_type: string;
  source: string | null;
  parked: boolean;
  unsubscribed: boolean;
  ios_address_book_id: string | null;
  android_address_book_id: string | null;
  touch_freq: number | null;
  last_touch: Timestamp | null;
  last_touch_action: string | null;
  next_touch: Timestamp | null;
  display_name: string;
  sort_field: string;
  search_tsv: TsVector;
  created_for: string | null;
  updated_for: string | null;
  deleted_for: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** A listing as an activity carries it (spec §6). */
export interface ActivityListing {
  id: string | null;
  mls: string | null;
  mls_number: string | null;
  status: string | null;
  price: number | null;
  address: string | null;
}

type Json<T> = ColumnType<T, string | null, never>;

export interface ContactActivitiesTable {
  id: Generated<string>;
  contact: string;
  brand: string;
  action: string;
  listing: Json<ActivityListing | null>;
  lead: Json<Record<string, unknown> | null>;
  search: Json<Record<string, unknown> | null>;
  notes: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

export interface LeadChannelsTable {
  id: Generated<string>;
  brand: string;
  user_id: string | null;
  title: string | null;
  source_type: Generated<string>;
  capture_count: Generated<number>;
  last_capture_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** The words of contact search (migration 2026-11-28T0100-contact-words): written by triggers on contacts, never by the API. */
export interface ContactWordsTable {
  brand: string;
  word: string;
  sort_field: string;
  contact: string;
}

export interface ContactsTables {
  contacts: ContactsTable;
  contact_words: ContactWordsTable;
  contact_activities: ContactActivitiesTable;
  lead_channels: LeadChannelsTable;
}
