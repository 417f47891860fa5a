// The alert results page (GET /a/:token; docs/public-pages.md): the saved search's current results as the alert
// email's cards (photo, price, status, address linking to the listing page, beds · baths · area), a page at a time,
// and the pages that explain a link that no longer works. Server-rendered, no script, every value escaped.
import { html, type Html } from '../../platform/pages/html.js';
import type { ListingCard } from '../saved-searches/index.js';
import { ALERT_PAGES_STYLE } from './alert-pages.style.js';
import { renderPublicPage, type RenderedPage } from './page-layout.js';
import type { PageFormat } from './page-format.js';
import type { Theme } from './theme.js';

/** A page of a person's own alert: kept out of search engines (the address is a capability, not a public page). */
export const NO_INDEX = html`<meta name="robots" content="noindex">`;

/** Cards per page: a grid of 2, 3 or 4 columns comes out even. */
export const RESULTS_PER_PAGE = 24;
/** The first cards are in view at once: fetched eagerly, the rest when scrolled to. */
const EAGER_PHOTOS = 2;

export interface ResultsPageInput {
  theme: Theme;
  appName: string;
  format: PageFormat;
  title: string;
  cards: ListingCard[];
  total: number;
  /** 1-based. */
  page: number;
  /** Path of this page (without ?page=) and of the preferences page, relative to the site. */
  selfPath: string;
  preferencesPath: string;
}

function card(item: ListingCard, index: number): Html {
  const photo = item.photo
    ? html`<img src="${item.photo}" alt="${`Photo: ${item.address}`}" width="400" height="300" ${
        index < EAGER_PHOTOS ? '' : html`loading="lazy"`
      } decoding="async">`
    : // A card without a photo keeps the photo's place, so the cards of a row line up.
      html`<div class="no-photo" aria-hidden="true"></div>`;
  return html`<li class="result">${photo}<div class="result-body">
<p><span class="card-price">${item.price ?? ''}</span> <span class="status">${item.status}</span></p>
<h2 class="card-address"><a href="${item.url}">${item.address}</a></h2>
${item.facts ? html`<p class="muted">${item.facts}</p>` : ''}
</div></li>`;
}

function pager(input: ResultsPageInput, pages: number): Html {
  if (pages <= 1) return html``;
  const link = (page: number, label: string, rel: string) =>
    html`<a class="button" rel="${rel}" href="${`${input.selfPath}?page=${page}`}">${label}</a>`;
  return html`<nav class="pager" aria-label="Pages">${input.page > 1 ? link(input.page - 1, 'Previous', 'prev') : html`<span></span>`}
<span class="muted">Page ${input.format.count(input.page)} of ${input.format.count(pages)}</span>
${input.page < pages ? link(input.page + 1, 'Next', 'next') : html`<span></span>`}</nav>`;
}

export function alertResultsPage(input: ResultsPageInput): RenderedPage {
  const pages = Math.ceil(input.total / RESULTS_PER_PAGE);
  const siteName = input.theme.brand?.name ?? input.appName;
  const count = `${input.format.count(input.total)} ${input.total === 1 ? 'home matches' : 'homes match'} now`;
  const empty =
    input.cards.length > 0
      ? ''
      : input.total > 0
        ? html`<p>There is nothing more to show. <a href="${input.selfPath}">Back to the first page</a></p>`
        : html`<p>No homes match this search right now. Your alert email will tell you when one does.</p>`;
  return renderPublicPage({
    title: `${input.title} · ${siteName}`,
    description: count,
    theme: input.theme,
    appName: input.appName,
    head: NO_INDEX,
    style: ALERT_PAGES_STYLE,
    body: html`<div class="alert-head"><p class="muted">Your saved search</p><h1>${input.title}</h1>
<p class="muted">${count} · <a href="${input.preferencesPath}">Alert preferences</a></p></div>
${input.cards.length > 0 ? html`<ul class="results">${input.cards.map(card)}</ul>` : empty}
${pager(input, pages)}`,
  });
}

/** Why an alert link leads nowhere. */
export type LinkProblem = 'invalid' | 'expired' | 'gone';

const PROBLEMS: Record<LinkProblem, { title: string; text: string }> = {
  invalid: {
    title: 'This link doesn’t work',
    text: 'It may be incomplete or have been changed. Open it again from your latest alert email.',
  },
  expired: {
    title: 'This link has expired',
    text: 'Alert links work for a while after the email is sent. Your next alert email brings a fresh one, or ask your agent to send the latest homes.',
  },
  gone: {
    title: 'This alert is no longer available',
    text: 'The saved search was removed, or you no longer follow it. Ask your agent if you would like to receive it again.',
  },
};

export function alertLinkProblemPage(input: { problem: LinkProblem; theme: Theme; appName: string }): RenderedPage {
  const { title, text } = PROBLEMS[input.problem];
  return renderPublicPage({
    title: `${title} · ${input.theme.brand?.name ?? input.appName}`,
    description: text,
    theme: input.theme,
    appName: input.appName,
    head: NO_INDEX,
    body: html`<div class="not-found"><h1>${title}</h1><p>${text}</p></div>`,
  });
}
