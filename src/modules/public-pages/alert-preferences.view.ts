// The alert preferences page (GET /a/:token/preferences; docs/public-pages.md): every saved search of the brand the
// contact follows, each with a frequency to pick (Instant, Daily, Weekly, Monthly, Never = unsubscribed), one Save
// button, and "Unsubscribe from all". A form without script that posts to the same address (Post/Redirect/Get).
import { html } from '../../platform/pages/html.js';
import type { AlertPreference, Frequency } from '../saved-searches/index.js';
import { ALERT_PAGES_STYLE } from './alert-pages.style.js';
import { NO_INDEX } from './alert-results.view.js';
import { renderPublicPage, type RenderedPage } from './page-layout.js';
import type { Theme } from './theme.js';

/** The choices in the order shown, with the words a person reads. */
export const FREQUENCY_CHOICES: readonly [Frequency, string][] = [
  ['Instant', 'As soon as a home matches'],
  ['Daily', 'Once a day'],
  ['Weekly', 'Once a week'],
  ['Monthly', 'Once a month'],
  ['Never', 'Never (unsubscribed)'],
];

/** The form field of a search's frequency: `s.<search id>`. */
export const SEARCH_FIELD_PREFIX = 's.';

export interface PreferencesPageInput {
  theme: Theme;
  appName: string;
  preferences: AlertPreference[];
  csrf: string;
  /** After a successful post (the redirect's `?saved=1`). */
  saved: boolean;
  resultsPath: string;
  /** What went wrong with a post (400 page): shown above the form. */
  problem?: string;
}

export function alertPreferencesPage(input: PreferencesPageInput): RenderedPage {
  const siteName = input.theme.brand?.name ?? input.appName;
  const rows = input.preferences.map((preference, index) => {
    const id = `search-${index + 1}`;
    return html`<div class="pref"><label for="${id}">${preference.title}</label>
<select id="${id}" name="${`${SEARCH_FIELD_PREFIX}${preference.search}`}">${FREQUENCY_CHOICES.map(
      ([value, label]) =>
        html`<option value="${value}"${preference.frequency === value ? html` selected` : ''}>${label}</option>`,
    )}</select></div>`;
  });
  const notice = input.problem
    ? html`<p class="notice" role="alert">${input.problem}</p>`
    : input.saved
      ? html`<p class="notice" role="status">Saved. Your next alert follows these choices.</p>`
      : '';
  const form =
    input.preferences.length === 0
      ? html`<p>You no longer follow any saved search of ${siteName}.</p>`
      : html`<form class="prefs" method="post" action="preferences">
<input type="hidden" name="csrf" value="${input.csrf}">
${rows}
<div class="actions"><button class="button" type="submit">Save</button>
<button class="link" type="submit" name="all" value="Never">Unsubscribe from all</button></div>
</form>`;
  return renderPublicPage({
    title: `Alert preferences · ${siteName}`,
    description: `How often ${siteName} emails you about new homes.`,
    theme: input.theme,
    appName: input.appName,
    head: NO_INDEX,
    style: ALERT_PAGES_STYLE,
    body: html`<div class="alert-head"><h1>Alert preferences</h1>
<p class="muted">How often ${siteName} emails you about new homes for each search you follow. <a href="${input.resultsPath}">See the homes</a></p></div>
${notice}${form}`,
  });
}

/** A post refused before it reached the page's rules (too large, not a form): nothing was changed. */
export function formRefusedPage(input: { theme: Theme; appName: string }): RenderedPage {
  return renderPublicPage({
    title: `Not saved · ${input.theme.brand?.name ?? input.appName}`,
    description: 'These choices could not be saved.',
    theme: input.theme,
    appName: input.appName,
    head: NO_INDEX,
    body: html`<div class="not-found"><h1>Your choices were not saved</h1><p>The form could not be read, and nothing was changed. Go back, reload the page and try again.</p></div>`,
  });
}
