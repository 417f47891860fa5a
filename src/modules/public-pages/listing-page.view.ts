// The public listing page (decisions §21): the listing as a person reads it. Photos, price, address, the facts,
// the remarks and details, open houses still to come, the listing agent and office, and the MLS's disclaimer.
// Server-rendered, no script; every value escaped by `html`; only http(s) addresses become links or images.
import { html, type Html } from '../../platform/pages/html.js';
import type { ListingRecord } from '../listings/listings.schemas.js';
import { askForm, defaultAskMessage, type AskFormSetup } from './lead-form.view.js';
import { listingHead, listingJsonLd } from './listing-page.head.js';
import { renderPublicPage, type RenderedPage } from './page-layout.js';
import type { PageFormat } from './page-format.js';
import type { Theme } from './theme.js';

/** A gallery keeps its HTML small: MLS feeds send up to ~100 photos, the page shows this many. */
export const MAX_PHOTOS = 60;
const CLOSED = new Set(['Sold', 'Leased']);

export interface ListingPageInput {
  record: ListingRecord;
  theme: Theme;
  format: PageFormat;
  /** The page's own address (canonical, og:url). */
  pageUrl: string;
  now: Date;
  appName: string;
  /** The "Ask about this home" form, when the page's brand takes leads (lead-form.service.ts); null hides it. */
  ask?: AskFormSetup | null;
}

const isHttpUrl = (text: string | null | undefined): text is string => !!text && /^https?:\/\/[^\s]+$/i.test(text);
const telHref = (phone: string) => `tel:${phone.replace(/[^0-9+]/g, '')}`;
const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/** The listing's photos, http(s) only, in feed order (the cover first when the gallery is empty). */
export function photosOf(record: ListingRecord): string[] {
  const gallery = record.gallery_image_urls.filter(isHttpUrl);
  const photos = gallery.length > 0 ? gallery : [record.cover_image_url].filter(isHttpUrl);
  return photos.slice(0, MAX_PHOTOS);
}

/** "4521 Maple Ave" (or the full address, or the MLS number when the feed sent no address). */
export function headlineOf(record: ListingRecord): string {
  const { address } = record.property;
  return (
    address.street_address?.trim() ||
    address.full_address?.trim() ||
    `${record.property.property_subtype ?? 'Listing'} ${record.mls_number}`
  );
}

function localityOf(record: ListingRecord): string {
  const { city, state, postal_code } = record.property.address;
  const region = [state, postal_code].filter(Boolean).join(' ');
  return [city, region].filter(Boolean).join(', ');
}

/** "4521 Maple Ave, Dallas, TX 75201": the headline and the locality. */
export function fullAddressOf(record: ListingRecord): string {
  return [headlineOf(record), localityOf(record)].filter(Boolean).join(', ');
}

function factsOf(record: ListingRecord, format: PageFormat): { value: string; label: string }[] {
  const p = record.property;
  const facts: { value: string; label: string }[] = [];
  if (present(p.bedroom_count))
    facts.push({ value: format.count(p.bedroom_count), label: p.bedroom_count === 1 ? 'bed' : 'beds' });
  if (present(p.bathroom_count))
    facts.push({ value: format.count(p.bathroom_count), label: p.bathroom_count === 1 ? 'bath' : 'baths' });
  if (present(p.square_meters)) {
    const [value, ...unit] = format.area(p.square_meters).split(' ');
    facts.push({ value: value!, label: unit.join(' ') });
  }
  if (present(p.lot_square_meters)) facts.push({ value: format.lot(p.lot_square_meters), label: 'lot' });
  return facts;
}

function priceBlock(record: ListingRecord, format: PageFormat): Html {
  const closed = CLOSED.has(record.status) && present(record.close_price);
  const amount = closed ? record.close_price : record.price;
  if (!present(amount)) return html``;
  const verb = record.status === 'Leased' ? 'Leased' : 'Sold';
  const note =
    closed && present(record.close_date)
      ? html`<p class="price-note">${verb} on ${format.date(record.close_date)}</p>`
      : !closed && present(record.original_price) && record.original_price > amount
        ? html`<p class="price-note">Was ${format.money(record.original_price, record.currency)}</p>`
        : '';
  return html`<p class="price">${format.money(amount, record.currency)}</p>${note}`;
}

const humanize = (key: string) => {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function detailsOf(record: ListingRecord, format: PageFormat): [string, string][] {
  const p = record.property;
  const rows: [string, string | null][] = [
    ['Property type', p.property_subtype ?? p.property_type],
    ['Year built', present(p.year_built) ? String(p.year_built) : null],
    [
      'Bathrooms',
      present(p.full_bathroom_count) && present(p.half_bathroom_count) && p.half_bathroom_count > 0
        ? `${format.count(p.full_bathroom_count)} full, ${format.count(p.half_bathroom_count)} half`
        : null,
    ],
    ['Parking spaces', present(p.parking_spaces_total) ? format.count(p.parking_spaces_total) : null],
    ['Pool', p.pool === true ? 'Yes' : null],
    ['Listed', present(record.list_date) ? format.date(record.list_date) : null],
    ['MLS #', record.mls_number],
  ];
  for (const [name, values] of Object.entries(p.features)) {
    if (values.length > 0) rows.push([humanize(name), values.join(', ')]);
  }
  return rows.filter((row): row is [string, string] => row[1] !== null && row[1] !== '');
}

function gallery(photos: string[], headline: string): Html {
  if (photos.length === 0) return html``;
  // The first photo is what the visitor sees first: fetched at once; the others only when scrolled to.
  const items = photos.map(
    (url, i) =>
      html`<li><img src="${url}" alt="${`Photo ${i + 1} of ${photos.length}: ${headline}`}" width="800" height="600" ${
        i === 0 ? html`fetchpriority="high"` : html`loading="lazy"`
      } decoding="async"></li>`,
  );
  // Focusable: a keyboard scrolls the strip too (it is a scrollable region without script).
  return html`<ul class="gallery" aria-label="Photos" tabindex="0">${items}</ul>${
    photos.length > 1 ? html`<p class="photo-count">${photos.length} photos · scroll for more</p>` : ''
  }`;
}

function openHouses(record: ListingRecord, format: PageFormat, now: Date): Html {
  const upcoming = record.open_houses.filter((house) => house.end_time * 1000 > now.getTime());
  if (upcoming.length === 0) return html``;
  return html`<section class="card" aria-labelledby="open-houses"><h2 id="open-houses">Open houses</h2><ul class="houses">${upcoming.map(
    (house) =>
      html`<li>${format.timeRange(house.start_time, house.end_time)}${house.description ? html`<span>${house.description}</span>` : ''}</li>`,
  )}</ul></section>`;
}

function listedBy(record: ListingRecord): Html {
  const agent = record.list_agent;
  const name =
    agent?.full_name?.trim() || [agent?.first_name, agent?.last_name].filter(Boolean).join(' ').trim() || null;
  const phone = agent?.work_phone?.trim() || agent?.phone_number?.trim() || null;
  const office = record.list_office_name?.trim() || null;
  if (!name && !office) return html``;
  return html`<section class="card" aria-labelledby="listed-by"><h2 id="listed-by">Listed by</h2>
${name ? html`<p class="agent-name">${name}</p>` : ''}${office ? html`<p>${office}</p>` : ''}${
    phone ? html`<a class="button" href="${telHref(phone)}">Call ${phone}</a>` : ''
  }</section>`;
}

function mlsFooter(record: ListingRecord, format: PageFormat, now: Date): Html {
  const info = record.mls_info;
  const disclaimer = info?.disclaimer?.replace(/\{\{\s*currentYear\s*\}\}/g, format.year(now));
  const office = record.list_office_name?.trim();
  return html`${info && isHttpUrl(info.logo_url) ? html`<img class="mls-logo" src="${info.logo_url}" alt="${info.name}" width="120" height="32" loading="lazy" decoding="async">` : ''}
${office ? html`<p>Listing courtesy of ${office}.</p>` : ''}
${disclaimer ? html`<p class="disclaimer">${disclaimer}</p>` : info ? html`<p>Listing data from ${info.name}.</p>` : ''}`;
}

/** "3 beds · 2.5 baths · 1,850 sq ft — Charming bungalow…": the preview text of a shared link. */
function summaryLine(record: ListingRecord, format: PageFormat): string {
  const facts = factsOf(record, format)
    .filter((fact) => fact.label !== 'lot')
    .map((fact) => `${fact.value} ${fact.label}`)
    .join(' · ');
  const remarks = record.content?.replace(/\s+/g, ' ').trim() ?? '';
  const text = [facts, remarks].filter(Boolean).join(' — ');
  return text.length > 200 ? `${text.slice(0, 197).trimEnd()}…` : text;
}

export function listingPage(input: ListingPageInput): RenderedPage {
  const { record, format, now } = input;
  const headline = headlineOf(record);
  const locality = localityOf(record);
  const photos = photosOf(record);
  const price = record.close_price ?? record.price;
  const title = fullAddressOf(record);
  const fullTitle = present(price) ? `${title} · ${format.money(price, record.currency)}` : title;
  const siteName = input.theme.brand?.name ?? input.appName;
  const head = { title: fullTitle, description: summaryLine(record, format), pageUrl: input.pageUrl, photos, siteName };
  const details = detailsOf(record, format);
  const body = html`${gallery(photos, headline)}
<div class="summary">
<p><span class="status">${record.status}</span>${present(record.dom) ? html` <span class="dom">${record.dom} ${record.dom === 1 ? 'day' : 'days'} on market</span>` : ''}</p>
<h1>${headline}</h1>
${locality ? html`<p class="locality">${locality}</p>` : ''}
${priceBlock(record, format)}
<ul class="facts">${factsOf(record, format).map((fact) => html`<li><strong>${fact.value}</strong> ${fact.label}</li>`)}</ul>
</div>
<div class="columns">
<section aria-labelledby="about"><h2 id="about">About this home</h2>
${record.content ? html`<p class="remarks">${record.content}</p>` : ''}
<dl class="details">${details.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
</section>
<div>${openHouses(record, format, now)}${listedBy(record)}${
    input.ask
      ? askForm({
          ...input.ask,
          values: { name: '', email: '', phone: '', message: defaultAskMessage(title) },
        })
      : ''
  }</div>
</div>`;
  return renderPublicPage({
    title: `${fullTitle} · ${siteName}`,
    description: head.description || title,
    theme: input.theme,
    appName: input.appName,
    head: listingHead(head, listingJsonLd(record, head)),
    body,
    footer: mlsFooter(record, format, now),
  });
}
