// Saved searches (spec §2.5, decisions §6; docs/saved-searches.md): brand-owned, CRM ACL. The criteria are checked
// by the listing search engine itself (checkSavedCriteria), so a saved search accepts exactly what a search does.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import { requireReachableContacts } from '../contacts/index.js';
import type { SearchCriteria } from '../listings/search/search.schemas.js';
import { checkSavedCriteria, searchListings, type SearchResult, resolveSort } from '../listings/index.js';
import { SearchCriteria as CriteriaSchema } from '../listings/search/search.schemas.js';
import { matchFormColumns } from './matching.forms.js';
import { presentSavedSearches } from './saved-searches.presenter.js';
import * as repo from './saved-searches.repository.js';
import type {
  LinkContactsBody,
  ListSavedSearchesQuery,
  SavedSearchInput,
  SavedSearchRecord,
} from './saved-searches.schemas.js';
import { scheduleOf } from './saved-searches.schedule.js';

const CRITERIA_KEYS = Object.keys(CriteriaSchema.properties) as (keyof SearchCriteria)[];

function criteriaOf(input: Partial<SavedSearchInput>): SearchCriteria {
  return Object.fromEntries(
    CRITERIA_KEYS.filter((key) => key in input).map((key) => [key, input[key]]),
  ) as SearchCriteria;
}

async function brandAccess(deps: Deps, actor: Actor, brand: string): Promise<void> {
  await requireAccess(deps.db, actor, brand, 'CRM', { denied: 'forbidden' });
}

async function present(deps: Deps, brand: string, id: string, associations: Set<string>): Promise<SavedSearchRecord> {
  const row = await repo.findSavedSearch(deps.db, brand, id);
  if (!row) throw errors.notFound('Saved search');
  const [record] = await presentSavedSearches(deps, [row], associations);
  return record!;
}

export async function createSavedSearch(
  deps: Deps,
  actor: Actor,
  brand: string,
  input: SavedSearchInput,
  associations: Set<string>,
): Promise<SavedSearchRecord> {
  await brandAccess(deps, actor, brand);
  const { criteria, proposedTitle } = await checkSavedCriteria(deps, actor, criteriaOf(input));
  const schedule = scheduleOf(input, null);
  const contacts = input.contacts ?? [];
  await requireReachableContacts(deps.db, actor, contacts);
  const { brands = [], boundaries = [], ...stored } = criteria;
  const at = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const match = await matchFormColumns(trx, criteria, at);
    const id = await repo.insertSavedSearch(trx, {
      brand,
      created_by: actor.userId,
      title: input.title?.trim() || null,
      proposed_title: proposedTitle,
      criteria: stored,
      match,
      ...schedule,
      at,
    });
    await repo.replaceBrands(trx, id, brands);
    await repo.replaceBoundaries(trx, id, boundaries);
    await repo.upsertLinks(trx, id, contacts, schedule, at);
    return id;
  });
  return present(deps, brand, id, associations);
}

export async function getSavedSearch(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  associations: Set<string>,
): Promise<SavedSearchRecord> {
  await brandAccess(deps, actor, brand);
  return present(deps, brand, id, associations);
}

export async function listSavedSearches(
  deps: Deps,
  actor: Actor,
  brand: string,
  query: ListSavedSearchesQuery,
  associations: Set<string>,
) {
  await brandAccess(deps, actor, brand);
  const [rows, total] = await Promise.all([
    repo.listSavedSearches(deps.db, brand, query.start, query.limit),
    repo.countSavedSearches(deps.db, brand),
  ]);
  return { records: await presentSavedSearches(deps, rows, associations), total };
}

/**
 * PATCH merges the body into the search (a field sent as null clears it); PUT replaces the criteria, the title
 * and the schedule with the body's (what it leaves out is cleared). Both are checked like a new search, and
 * `contacts`, when sent, becomes the set of linked contacts. A new schedule applies to every linked contact.
 */
export async function changeSavedSearch(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  input: Partial<SavedSearchInput>,
  mode: 'merge' | 'replace',
  associations: Set<string>,
): Promise<SavedSearchRecord> {
  await brandAccess(deps, actor, brand);
  await deps.db.transaction().execute(async (trx) => {
    // Locked, then read: two PATCHes of one search merge one after the other, never over the same base.
    if (!(await repo.lockSavedSearch(trx, brand, id))) throw errors.notFound('Saved search');
    const current = (await repo.findSavedSearch(trx, brand, id))!;
    const merged = mode === 'merge' ? { ...repo.storedCriteriaOf(current), ...criteriaOf(input) } : criteriaOf(input);
    const { criteria, proposedTitle } = await checkSavedCriteria({ ...deps, db: trx }, actor, merged);
    const scheduleSent =
      input.frequency !== undefined ||
      input.send_time !== undefined ||
      input.send_weekday !== undefined ||
      input.send_monthday !== undefined;
    const schedule =
      mode === 'replace' || scheduleSent ? scheduleOf(input, mode === 'merge' ? current : null) : pickSchedule(current);
    const title = input.title === undefined ? (mode === 'merge' ? current.title : null) : input.title?.trim() || null;
    const contacts = input.contacts ?? null;
    if (contacts) await requireReachableContacts(trx, actor, contacts);
    const { brands = [], boundaries = [], ...stored } = criteria;
    const at = deps.clock.now();
    await repo.updateSavedSearch(
      trx,
      id,
      {
        title,
        proposed_title: proposedTitle,
        criteria: stored,
        match: await matchFormColumns(trx, criteria, at),
        ...schedule,
      },
      at,
    );
    await repo.replaceBrands(trx, id, brands);
    await repo.replaceBoundaries(trx, id, boundaries);
    if (contacts) await repo.unlinkOthers(trx, id, contacts);
    if (mode === 'replace' || scheduleSent) await repo.rescheduleLinks(trx, id, schedule, at);
    if (contacts) await repo.upsertLinks(trx, id, contacts, schedule, at);
  });
  return present(deps, brand, id, associations);
}

function pickSchedule(s: repo.Schedule): repo.Schedule {
  return {
    frequency: s.frequency,
    send_time: s.send_time,
    send_weekday: s.send_weekday,
    send_monthday: s.send_monthday,
  };
}

export async function deleteSavedSearch(deps: Deps, actor: Actor, brand: string, id: string): Promise<void> {
  await brandAccess(deps, actor, brand);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockSavedSearch(trx, brand, id))) throw errors.notFound('Saved search');
    await repo.softDeleteSavedSearch(trx, id, deps.clock.now());
  });
}

/** Links contacts with the body's schedule, or the search's own when the body has none. */
export async function linkContacts(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  body: LinkContactsBody,
  associations: Set<string>,
): Promise<SavedSearchRecord> {
  await brandAccess(deps, actor, brand);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockSavedSearch(trx, brand, id))) throw errors.notFound('Saved search');
    const current = (await repo.findSavedSearch(trx, brand, id))!;
    await requireReachableContacts(trx, actor, body.contacts);
    const schedule = body.frequency != null ? scheduleOf(body, null) : pickSchedule(current);
    const at = deps.clock.now();
    await repo.upsertLinks(trx, id, body.contacts, schedule, at);
    await repo.touchSavedSearch(trx, id, at);
  });
  return present(deps, brand, id, associations);
}

export async function unlinkContact(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  contact: string,
): Promise<void> {
  await brandAccess(deps, actor, brand);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockSavedSearch(trx, brand, id))) throw errors.notFound('Saved search');
    if (!(await repo.unlinkContact(trx, id, contact))) throw errors.notFound('Contact');
    await repo.touchSavedSearch(trx, id, deps.clock.now());
  });
}

/** Runs the search with the engine's paging and sort (GET …/:id/listings). */
export async function runSavedSearch(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  paging: { start: number; limit: number; order_by?: string[] },
): Promise<SearchResult> {
  await brandAccess(deps, actor, brand);
  const row = await repo.findSavedSearch(deps.db, brand, id);
  if (!row) throw errors.notFound('Saved search');
  return searchListings(deps, actor, {
    criteria: repo.storedCriteriaOf(row),
    sort: resolveSort(undefined, paging.order_by),
    start: paging.start,
    limit: paging.limit,
    anchor: 'required',
  });
}
