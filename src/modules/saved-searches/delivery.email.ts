// The alert email (issue 12 item 3): one card per listing (cover photo, formatted price, street address,
// beds/baths/area, status, a link to the listing page: LISTING_URL's when set, else Gable's own, signed with the
// search's brand), a "see all N" link, the search's title, one-click unsubscribe (RFC 8058 headers and a link in the
// body), and a plain-text part. Every value is escaped (platform/pages/html.ts). The alert results page
// (public-pages) shows the same cards.
import type { Kysely } from 'kysely';
import type { PooledDatabase } from '../../db/prepared.js';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import type { OutgoingMessage } from '../../mail/mail.service.js';
import { html } from '../../platform/pages/html.js';
import type { MasterKeys } from '../../lib/crypto.js';
import {
  findListingCardRows,
  findListingCardRowsPrepared,
  formatCardTexts,
  type ListingCardRow,
} from '../listings/index.js';
import { listingLinkUrl } from '../public-pages/index.js';

export interface ListingCard {
  id: string;
  mls: string;
  mls_number: string;
  address: string;
  price: string | null;
  facts: string;
  status: string;
  photo: string | null;
  url: string;
}

type LinkConfig = Pick<Deps['config'], 'listingUrl' | 'webUrl'> & MasterKeys;

/** Cards of these listings (live ones), in the order given, linked for `brand` (null: the page's own choice). */
export async function listingCards(
  db: Kysely<DB>,
  config: LinkConfig,
  ids: readonly string[],
  brand: string | null = null,
): Promise<ListingCard[]> {
  if (ids.length === 0) return [];
  return cardsOfRows(await findListingCardRows(db, ids), config, ids, brand);
}

/** `listingCards` read by a prepared statement on a pooled connection (no transaction): the alert results page. */
export async function listingCardsPrepared(
  database: PooledDatabase,
  config: LinkConfig,
  ids: readonly string[],
  brand: string | null,
): Promise<ListingCard[]> {
  if (ids.length === 0) return [];
  return cardsOfRows(await findListingCardRowsPrepared(database, ids), config, ids, brand);
}

function cardsOfRows(
  rows: readonly ListingCardRow[],
  config: LinkConfig,
  ids: readonly string[],
  brand: string | null,
): ListingCard[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    // The texts the listing record's `formatted` carries (what the WordPress plugin shows), so email and payload agree.
    const texts = formatCardTexts(row);
    const street = texts.street ?? row.mls_number;
    const place = [row.city, row.state].filter(Boolean).join(', ');
    const facts = [texts.beds, texts.baths, texts.square_feet].filter(Boolean).join(' · ');
    const card = { id, mls: row.mls, mls_number: row.mls_number };
    return [
      {
        ...card,
        address: place ? `${street}, ${place}` : street,
        price: texts.price,
        facts,
        status: row.status,
        photo: row.cover_image_url ?? row.first_photo,
        url: listingLinkUrl(config, card, brand),
      },
    ];
  });
}

export interface AlertEmail {
  to: string;
  contact: string;
  searchTitle: string;
  cards: ListingCard[];
  /** How many listings the email is about ("see all N"). */
  total: number;
  seeAllUrl: string;
  /** The contact's alert preferences page (every search of the brand, each one's frequency). */
  preferencesUrl: string;
  unsubscribeUrl: string;
  /** Instant or the digest's frequency, for the subject. */
  kind: 'Instant' | 'Daily' | 'Weekly' | 'Monthly';
}

/** Cards shown in one email; "see all N" leads to the rest. */
export const MAX_CARDS = 20;

export function alertMessage(email: AlertEmail): OutgoingMessage {
  const shown = email.cards.slice(0, MAX_CARDS);
  // Titles and addresses are user and feed data: a line break would be a header injection (refused by the mail platform).
  const subject = (
    email.total === 1 && shown[0]
      ? `${shown[0].address} — new for “${email.searchTitle}”`
      : `${email.total} new listings for “${email.searchTitle}”`
  ).replace(/[\r\n]+/g, ' ');
  const cards = shown.map(
    (card) => html`<tr><td style="padding:12px 0;border-bottom:1px solid #e5e5e5">
      ${card.photo ? html`<a href="${card.url}"><img src="${card.photo}" alt="${card.address}" width="560" style="max-width:100%;border-radius:6px"></a><br>` : ''}
      <strong style="font-size:18px">${card.price ?? ''}</strong> <span style="color:#555">${card.status}</span><br>
      <a href="${card.url}" style="color:#111">${card.address}</a><br>
      <span style="color:#555">${card.facts}</span>
    </td></tr>`,
  );
  const body = html`<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;margin:0;padding:16px">
    <table role="presentation" width="100%" style="max-width:600px;margin:auto">
      <tr><td><h1 style="font-size:20px">${email.searchTitle}</h1></td></tr>
      ${cards}
      <tr><td style="padding:16px 0"><a href="${email.seeAllUrl}">See all homes that match</a></td></tr>
      <tr><td style="color:#777;font-size:12px">You receive this because you follow the search “${email.searchTitle}”.
        <a href="${email.preferencesUrl}">Alert preferences</a> · <a href="${email.unsubscribeUrl}">Unsubscribe</a></td></tr>
    </table></body></html>`;
  const text = [
    email.searchTitle,
    '',
    ...shown.flatMap((card) => [`${card.price ?? ''} ${card.status}`.trim(), card.address, card.facts, card.url, '']),
    `See all homes that match: ${email.seeAllUrl}`,
    '',
    `Alert preferences: ${email.preferencesUrl}`,
    `Unsubscribe: ${email.unsubscribeUrl}`,
  ].join('\n');
  return {
    purpose: 'saved_search_alert',
    contact: email.contact,
    to: [email.to],
    subject,
    html: body.text,
    text,
    headers: { 'List-Unsubscribe': `<${email.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
