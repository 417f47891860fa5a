// Checks of a campaign body that a JSON schema cannot express: one-line subject and headers (no header
// injection), html size in bytes, templates that parse, the field each recipient type needs, NUL characters.
import { errors, type ErrorAttributes } from '../../errors.js';
import { isCleanText } from '../contacts/index.js';
import type { CampaignRecipients, RecipientSpec } from './emails.columns.js';
import { MAX_HEADERS, MAX_HTML_BYTES, type Recipient } from './emails.schemas.js';
import { templateProblem } from './personalise.js';
import type { CampaignFields } from './emails.repository.js';

/** RFC 5322 field name characters. */
const HEADER_NAME = /^[!-9;-~]+$/;
/** Headers the server writes itself: a campaign may not replace them. */
const RESERVED_HEADERS = new Set([
  'from',
  'sender',
  'reply-to',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'message-id',
  'in-reply-to',
  'references',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'return-path',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'received',
  'dkim-signature',
]);
const LINE_BREAK = /[\r\n]/;
/** A due_at past this is a client error, not a date PostgreSQL cannot store. */
const MAX_DUE_AT_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

const FIELD_OF: Record<RecipientSpec['recipient_type'], 'email' | 'contact' | 'tag' | 'brand'> = {
  Email: 'email',
  Contact: 'contact',
  Tag: 'tag',
  Brand: 'brand',
};

export interface CampaignInput {
  subject: string;
  html: string;
  text?: string | null;
  due_at?: number | null;
  include_signature?: boolean;
  individual?: boolean;
  headers?: Record<string, string>;
  to?: Recipient[];
  cc?: Recipient[];
  bcc?: Recipient[];
  notifications_enabled?: boolean;
  archive?: boolean;
  tags?: string[];
  extmail_credential?: string | null;
}

function add(attributes: ErrorAttributes, field: string, message: string): void {
  (attributes[field] ??= []).push(message);
}

/** Only the key the recipient type uses is kept (the others are ignored, like unknown fields). */
function normaliseRecipient(entry: Recipient): RecipientSpec {
  const field = FIELD_OF[entry.recipient_type];
  const value = entry[field];
  const spec: RecipientSpec = { recipient_type: entry.recipient_type };
  if (typeof value === 'string')
    spec[field] = field === 'email' || field === 'tag' ? value.trim() : value.toLowerCase();
  return spec;
}

/**
 * Problems of a message's content: a one-line subject, html and text of at most 2 MiB without NUL, templates that
 * parse. Shared with brand triggers, whose subject and html become campaigns later.
 */
export function addContentProblems(
  attributes: ErrorAttributes,
  input: { subject: string; html: string; text?: string | null },
): void {
  if (!isCleanText(input.subject) || LINE_BREAK.test(input.subject))
    add(attributes, 'subject', 'must be one line of text (no CR, LF or NUL)');
  else if (input.subject.trim() === '') add(attributes, 'subject', 'must not be blank');
  else {
    const problem = templateProblem(input.subject, 'plain');
    if (problem) add(attributes, 'subject', problem);
  }
  if (Buffer.byteLength(input.html, 'utf8') > MAX_HTML_BYTES) add(attributes, 'html', 'must be at most 2 MiB');
  else if (!isCleanText(input.html)) add(attributes, 'html', 'must not contain the NUL character');
  else {
    const problem = templateProblem(input.html, 'html');
    if (problem) add(attributes, 'html', problem);
  }
  const text = input.text ?? null;
  if (text !== null) {
    if (Buffer.byteLength(text, 'utf8') > MAX_HTML_BYTES) add(attributes, 'text', 'must be at most 2 MiB');
    else if (!isCleanText(text)) add(attributes, 'text', 'must not contain the NUL character');
    else {
      const problem = templateProblem(text, 'plain');
      if (problem) add(attributes, 'text', problem);
    }
  }
}

/** One 400 naming the first bad field (and listing all in attributes), if any. */
export function throwIfProblems(attributes: ErrorAttributes): void {
  const [field, messages] = Object.entries(attributes)[0] ?? [];
  if (field) throw errors.validation(`${field} ${messages?.[0] ?? 'is invalid'}`, attributes);
}

/** Validated campaign fields, or one 400 naming every bad field. `now` replaces a missing or past due_at. */
export function campaignFieldsOf(input: CampaignInput, now: Date): CampaignFields {
  const attributes: ErrorAttributes = {};
  addContentProblems(attributes, input);
  const text = input.text ?? null;
  const headers = input.headers ?? {};
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) add(attributes, 'headers', `must have at most ${MAX_HEADERS} entries`);
  for (const name of names) {
    const value = headers[name]!;
    if (!HEADER_NAME.test(name)) add(attributes, `headers.${name}`, 'is not a valid header name');
    else if (RESERVED_HEADERS.has(name.toLowerCase()))
      add(attributes, `headers.${name}`, 'is set by the server and cannot be overridden');
    else if (LINE_BREAK.test(value) || !isCleanText(value))
      add(attributes, `headers.${name}`, 'must be one line (no CR, LF or NUL)');
  }
  const recipients: CampaignRecipients = { to: [], cc: [], bcc: [] };
  for (const list of ['to', 'cc', 'bcc'] as const) {
    (input[list] ?? []).forEach((entry, i) => {
      const field = FIELD_OF[entry.recipient_type];
      const value = entry[field];
      if (typeof value !== 'string' || value.trim() === '')
        add(attributes, `${list}.${i}.${field}`, `is required for recipient_type ${entry.recipient_type}`);
      else if (!isCleanText(value)) add(attributes, `${list}.${i}.${field}`, 'must not contain the NUL character');
      else recipients[list].push(normaliseRecipient(entry));
    });
  }
  if (!input.to?.length && !input.cc?.length && !input.bcc?.length)
    add(attributes, 'to', 'needs at least one recipient');
  const tags = (input.tags ?? []).map((t) => t.trim());
  tags.forEach((tag, i) => {
    if (!isCleanText(tag) || tag === '') add(attributes, `tags.${i}`, 'must be text without the NUL character');
  });
  let due = now;
  if (input.due_at !== undefined && input.due_at !== null) {
    if (!Number.isFinite(input.due_at) || input.due_at > MAX_DUE_AT_SECONDS || input.due_at < 0)
      add(attributes, 'due_at', 'must be epoch seconds between 1970 and 9999');
    else if (input.due_at * 1000 > now.getTime()) due = new Date(Math.round(input.due_at * 1000));
  }
  throwIfProblems(attributes);
  return {
    subject: input.subject,
    html: input.html,
    text,
    include_signature: input.include_signature ?? false,
    individual: input.individual ?? false,
    headers,
    recipients,
    notifications_enabled: input.notifications_enabled ?? false,
    archive: input.archive ?? false,
    tags,
    due_at: due,
    extmail_credential: input.extmail_credential?.toLowerCase() ?? null,
  };
}
