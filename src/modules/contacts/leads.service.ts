// Leads (decisions §14): a lead finds the brand's live contact by email, then by E.164 phone number (else
// creates one), adds its tags and missing details, and records a ContactLeadCaptured activity with the lead's
// listing, all in one transaction. Lead channels are a brand's capture points; the public capture endpoint is
// rate-limited per IP and per channel with the shared database counters (platform/attempts.ts).
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors, type ErrorAttributes } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import { isUuid } from '../../lib/uuid.js';
import { AttemptLimiter, attemptKey, type AttemptPolicy } from '../../platform/attempts.js';
import type { Actor } from '../auth/index.js';
import { recordEvents } from '../../events/outbox.js';
import { requireAccess } from '../brands/index.js';
import { presentContact } from './contacts.presenter.js';
import {
  applyContactInput,
  EMAIL,
  EMPTY_CONTACT,
  emailKey,
  findBadText,
  normalizePhone,
  type ContactFields,
} from './contacts.input.js';
import * as contacts from './contacts.repository.js';
import { insertContactsIn } from './contacts.service.js';
import * as repo from './leads.repository.js';
import type { CreateChannelBody, LeadBody, LeadChannelRecord, PostLeadBody, WebhookLeadBody } from './leads.schemas.js';
import { recordActivityIn } from './timeline.service.js';
import type { ActivityListingInput } from './timeline.schemas.js';

export const DEFAULT_LEAD_SOURCE_TYPE = 'Website';
/** Fixed hourly windows, no growing delays: at most this many captures, then 429 until the window ends. */
const hourly = (limit: number): AttemptPolicy => ({
  maxFailuresPerHour: limit,
  freeConsecutive: limit,
  maxDelaySeconds: 0,
  resetOnSuccess: false,
});
export const LEAD_CAPTURE_LIMITS = { perIp: hourly(100), perChannel: hourly(1000) };

export function presentChannel(row: repo.LeadChannelRow): LeadChannelRecord {
  return {
    id: row.id,
    type: 'lead_channel',
    brand: row.brand,
    user: row.user_id,
    title: row.title,
    source_type: row.source_type,
    capture_count: row.capture_count,
    last_capture_at: epochSeconds(row.last_capture_at),
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
  };
}

export async function createChannel(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CreateChannelBody,
): Promise<LeadChannelRecord> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const attributes: ErrorAttributes = {};
  findBadText(body, attributes);
  throwIfInvalid(attributes);
  const row = await repo.insertChannel(deps.db, {
    brand,
    user_id: actor.userId,
    title: body.title?.trim() || null,
    source_type: body.source_type?.trim() || DEFAULT_LEAD_SOURCE_TYPE,
    at: deps.clock.now(),
  });
  return presentChannel(row);
}

export async function listChannels(deps: Deps, actor: Actor, brand: string, paging: { start: number; limit: number }) {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const { rows, total } = await repo.listChannels(deps.db, brand, paging.start, paging.limit);
  return { records: rows.map(presentChannel), total };
}

function throwIfInvalid(attributes: ErrorAttributes): void {
  const [field, messages] = Object.entries(attributes)[0] ?? [];
  if (field) throw errors.validation(`${field} ${messages?.[0] ?? 'is invalid'}`, attributes);
}

interface LeadCapture {
  brand: string;
  /** Who the contact and activity are recorded for: the caller, or the channel's owner. */
  userId: string | null;
  channel: repo.LeadChannelRow | null;
  lead: LeadBody;
  listing: ActivityListingInput | null;
  /** Where the lead's fields are in the body, for error attributes (`lead.` for POST /leads). */
  prefix: string;
}

/** The listing a lead names: `listing` of the capture API, else `listing_id` (our id or an MLS number), else `mlsid`. */
function leadListing(capture: LeadCapture): ActivityListingInput | null {
  if (capture.listing) return capture.listing;
  const { listing_id, mlsid } = capture.lead;
  if (listing_id) return isUuid(listing_id) ? { id: listing_id } : { mls_number: listing_id };
  if (mlsid) return { mls_number: mlsid };
  return null;
}

/** The details a lead adds to an existing contact: its tags, and email, phone and names the contact lacks. */
function mergeLead(
  current: ContactFields,
  lead: {
    email: string | null;
    phone: string | null;
    first_name: string | null;
    last_name: string | null;
    tags: string[];
  },
): ContactFields {
  const next = { ...current };
  if (lead.email && !current.emails.some((e) => emailKey(e) === emailKey(lead.email!)))
    next.emails = [...current.emails, lead.email];
  if (lead.phone && !current.phone_numbers.includes(lead.phone))
    next.phone_numbers = [...current.phone_numbers, lead.phone];
  next.first_name ??= lead.first_name;
  next.last_name ??= lead.last_name;
  next.tags = [...new Set([...current.tags, ...lead.tags])];
  return next;
}

async function captureIn(trx: Transaction<DB>, deps: Deps, capture: LeadCapture): Promise<contacts.ContactRow> {
  const { lead, prefix, brand } = capture;
  const attributes: ErrorAttributes = {};
  findBadText(lead, attributes, prefix);
  if (capture.listing) findBadText(capture.listing, attributes, 'listing.');
  const email = lead.email?.trim() || null;
  if (email && !EMAIL.test(email)) attributes[`${prefix}email`] = ['must be an email address'];
  const phoneText = lead.phone_number?.trim() || null;
  const phone = phoneText ? normalizePhone(phoneText) : null;
  if (phoneText && !phone)
    attributes[`${prefix}phone_number`] = ['must be a phone number: E.164 (+14155550100) or a US national number'];
  if (!email && !phoneText) attributes[`${prefix}email`] = ['is required when there is no phone_number'];
  const tags = [...new Set((lead.tag ?? []).map((t) => t.trim()).filter(Boolean))];
  const sourceType = lead.source_type?.trim() || capture.channel?.source_type || DEFAULT_LEAD_SOURCE_TYPE;
  const fields = applyContactInput(
    EMPTY_CONTACT,
    {
      first_name: lead.first_name ?? null,
      last_name: lead.last_name ?? null,
      emails: email && EMAIL.test(email) ? [email] : [],
      phone_numbers: phone ? [phone] : [],
      tags,
      source_type: sourceType,
      source: lead.lead_source ?? null,
    },
    attributes,
    prefix,
  );
  throwIfInvalid(attributes);

  // One person sending two forms at once still makes one contact.
  if (email) await contacts.lockContactKey(trx, brand, `email:${emailKey(email)}`);
  if (phone) await contacts.lockContactKey(trx, brand, `phone:${phone}`);
  const existing =
    (email && (await contacts.findContactByKey(trx, brand, { emailKey: emailKey(email) }))) ||
    (phone && (await contacts.findContactByKey(trx, brand, { phone }))) ||
    undefined;
  const at = deps.clock.now();
  let contact: contacts.ContactRow;
  if (existing) {
    const merged = mergeLead(contacts.fieldsOf(existing), {
      email,
      phone,
      first_name: fields.first_name,
      last_name: fields.last_name,
      tags: fields.tags,
    });
    contact = await contacts.updateContact(trx, existing.id, merged, 'lead_capture', at);
    await recordEvents(trx, [
      { brand, topic: 'Contacts', event: 'update', subject: contact.id, payload: { contact: presentContact(contact) } },
    ]);
  } else {
    [contact] = (await insertContactsIn(trx, deps, brand, capture.userId, [fields], 'lead_capture')) as [
      contacts.ContactRow,
    ];
  }
  const storedLead = { ...lead, ...(capture.channel ? { lead_channel: capture.channel.id } : {}) };
  delete (storedLead as { assignees?: unknown }).assignees;
  await recordActivityIn(
    trx,
    deps,
    contact,
    { action: 'ContactLeadCaptured', lead: storedLead, listing: leadListing(capture), lenientListing: true },
    capture.userId,
    'lead_capture',
  );
  if (capture.channel) await repo.countCapture(trx, capture.channel.id, at);
  return (await contacts.findContact(trx, contact.id)) ?? contact;
}

/** POST /leads: a lead in the caller's brand (CRM), optionally through one of its channels. */
export async function postLead(deps: Deps, actor: Actor, brand: string, body: PostLeadBody) {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const channelId = body.metadata?.lead_channel ?? null;
  const row = await deps.db.transaction().execute(async (trx) => {
    const channel = channelId ? await repo.findChannel(trx, channelId) : null;
    if (channelId && channel?.brand !== brand)
      throw errors.invalidField('metadata.lead_channel', 'names no lead channel of this brand');
    return captureIn(trx, deps, {
      brand,
      userId: actor.userId,
      channel: channel ?? null,
      lead: body.lead,
      listing: null,
      prefix: 'lead.',
    });
  });
  return presentContact(row);
}

/**
 * The channel a brand's public pages capture leads through (the "Ask about this home" form, docs/public-pages.md):
 * its oldest live channel, so the choice is stable, and a brand chooses another by deleting the older one. None when
 * the brand has no channel: the form is then not offered (a public page creates nothing by being read).
 */
export async function defaultLeadChannel(deps: Pick<Deps, 'db'>, brand: string) {
  const row = await repo.findOldestLiveChannel(deps.db, brand);
  return row ? { id: row.id, brand: row.brand, user: row.user_id } : null;
}

/** POST /leads/channels/:channel/webhook: no token; the channel names the brand. Rate-limited before anything else. */
export async function captureFromChannel(
  deps: Deps,
  ip: string,
  channelId: string,
  body: WebhookLeadBody,
): Promise<void> {
  await new AttemptLimiter(deps.database, deps.clock).claim([
    attemptKey('lead-ip', ip, LEAD_CAPTURE_LIMITS.perIp),
    attemptKey('lead-channel', channelId.toLowerCase(), LEAD_CAPTURE_LIMITS.perChannel),
  ]);
  const { listing, ...lead } = body;
  await deps.db.transaction().execute(async (trx) => {
    const channel = await repo.findChannel(trx, channelId);
    if (!channel) throw errors.notFound('Lead channel');
    await captureIn(trx, deps, {
      brand: channel.brand,
      userId: channel.user_id,
      channel,
      lead,
      listing: listing ?? null,
      prefix: '',
    });
  });
}
