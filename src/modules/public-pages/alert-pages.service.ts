// The contact's alert pages (decisions §21; docs/public-pages.md): GET /a/:token (results), GET and POST
// /a/:token/preferences. The token is read first (alert-token.ts): one we did not make is a 404 page; one past its
// expiry a 410 page; one whose search was deleted, whose contact was deleted or is no longer linked a 404 page. Each
// page wears the search's brand (its palette; deleted searches too), else the neutral style. Everything about saved
// searches goes through that module's face: no SQL here.
import type { Deps } from '../../platform/deps.js';
import { AppError, errors } from '../../errors.js';
import {
  alertPreferences,
  alertResults,
  findAlertSearch,
  setAlertPreferences,
  type AlertPair,
  type AlertSearch,
} from '../saved-searches/index.js';
import { preferencesFormToken, preferencesFormTokenHolds } from './alert-preferences.csrf.js';
import { alertPreferencesPage, SEARCH_FIELD_PREFIX } from './alert-preferences.view.js';
import { alertLinkProblemPage, alertResultsPage, RESULTS_PER_PAGE, type LinkProblem } from './alert-results.view.js';
import { ALERT_PAGE_PREFIX, PREFERENCES_SUFFIX, readAlertToken } from './alert-token.js';
import { pageBrand } from './page-brand.cache.js';
import { PageFormat } from './page-format.js';
import type { RenderedPage } from './page-layout.js';
import { themeOf, type Theme } from './theme.js';

export interface AlertPageAnswer {
  status: 200 | 400 | 404 | 410;
  page: RenderedPage;
}

type Opened = { pair: AlertPair; search: AlertSearch; theme: Theme } | AlertPageAnswer;

const STATUS_OF: Record<LinkProblem, 404 | 410> = { invalid: 404, expired: 410, gone: 404 };

async function openAlertLink(deps: Deps, token: string): Promise<Opened> {
  const read = readAlertToken(deps.config, token, deps.clock.now());
  const search = read.state === 'invalid' ? null : await findAlertSearch(deps, read);
  // The brand's theme as the listing page reads it: kept for a few seconds per process (page-brand.cache.ts).
  const theme = (search ? await pageBrand(deps, [search.brand]) : null)?.theme ?? themeOf(null);
  const problem: LinkProblem | null =
    read.state === 'invalid' ? 'invalid' : read.state === 'expired' ? 'expired' : !search?.live ? 'gone' : null;
  if (problem || read.state !== 'valid' || !search)
    return {
      status: STATUS_OF[problem ?? 'invalid'],
      page: alertLinkProblemPage({ problem: problem ?? 'invalid', theme, appName: deps.config.appName }),
    };
  return { pair: { search: read.search, contact: read.contact }, search, theme };
}

const resultsUrl = (deps: Pick<Deps, 'config'>, token: string) => `${deps.config.webUrl}${ALERT_PAGE_PREFIX}${token}`;
export const preferencesUrl = (deps: Pick<Deps, 'config'>, token: string) =>
  `${resultsUrl(deps, token)}${PREFERENCES_SUFFIX}`;

export async function showAlertResults(deps: Deps, token: string, page: number): Promise<AlertPageAnswer> {
  const opened = await openAlertLink(deps, token);
  if ('status' in opened) return opened;
  const { cards, total } = await alertResults(deps, opened.search, {
    start: (page - 1) * RESULTS_PER_PAGE,
    limit: RESULTS_PER_PAGE,
  });
  return {
    status: 200,
    page: alertResultsPage({
      theme: opened.theme,
      appName: deps.config.appName,
      format: new PageFormat(opened.theme.locale, opened.theme.timeZone ?? 'UTC'),
      title: opened.search.title,
      cards,
      total,
      page,
      selfPath: resultsUrl(deps, token),
      preferencesPath: preferencesUrl(deps, token),
    }),
  };
}

async function preferencesAnswer(
  deps: Deps,
  token: string,
  opened: Exclude<Opened, AlertPageAnswer>,
  options: { saved?: boolean; problem?: string } = {},
): Promise<AlertPageAnswer> {
  return {
    status: options.problem ? 400 : 200,
    page: alertPreferencesPage({
      theme: opened.theme,
      appName: deps.config.appName,
      preferences: await alertPreferences(deps, opened.search.brand, opened.pair.contact),
      csrf: preferencesFormToken(deps.config, token, deps.clock.now()),
      saved: options.saved ?? false,
      resultsPath: resultsUrl(deps, token),
      ...(options.problem ? { problem: options.problem } : {}),
    }),
  };
}

export async function showAlertPreferences(deps: Deps, token: string, saved: boolean): Promise<AlertPageAnswer> {
  const opened = await openAlertLink(deps, token);
  if ('status' in opened) return opened;
  return preferencesAnswer(deps, token, opened, { saved });
}

/** The frequencies a posted form asks for: `s.<search>` fields, or every followed search with `all=Never`. */
function wantedOf(form: Record<string, unknown>, followed: readonly string[]): Map<string, string> {
  const wanted = new Map<string, string>();
  for (const [name, value] of Object.entries(form)) {
    if (name === 'csrf' || name === 'all') continue;
    if (!name.startsWith(SEARCH_FIELD_PREFIX) || typeof value !== 'string')
      throw errors.invalidField(name, 'is not a field of this form');
    wanted.set(name.slice(SEARCH_FIELD_PREFIX.length).toLowerCase(), value);
  }
  if (form.all !== undefined) {
    if (form.all !== 'Never') throw errors.invalidField('all', 'must be Never');
    return new Map(followed.map((search) => [search, 'Never']));
  }
  return wanted;
}

/**
 * A posted preferences form: a missing or stale CSRF field, an unknown frequency or a search the contact does not
 * follow (of this brand) is a 400 page and nothing is written; otherwise the new frequencies are set and the
 * browser is sent back to the page (Post/Redirect/Get) with a "Saved" notice.
 */
export async function saveAlertPreferences(
  deps: Deps,
  token: string,
  form: Record<string, unknown>,
): Promise<AlertPageAnswer | { redirect: string }> {
  const opened = await openAlertLink(deps, token);
  if ('status' in opened) return opened;
  if (!preferencesFormTokenHolds(deps.config, token, form.csrf, deps.clock.now()))
    return preferencesAnswer(deps, token, opened, {
      problem: 'This form is out of date. Nothing was changed: please make your choices again and save.',
    });
  const followed = (await alertPreferences(deps, opened.search.brand, opened.pair.contact)).map((p) => p.search);
  try {
    await setAlertPreferences(deps, opened.search.brand, opened.pair.contact, wantedOf(form, followed));
  } catch (error) {
    if (error instanceof AppError && error.http < 500)
      return preferencesAnswer(deps, token, opened, {
        problem: 'These choices could not be saved. Nothing was changed: please choose again from the lists below.',
      });
    throw error;
  }
  return { redirect: `${preferencesUrl(deps, token)}?saved=1` };
}
