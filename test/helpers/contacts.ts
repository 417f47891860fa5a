// Test support for the contacts tests: a user with a token in a brand, and the outbox rows of a brand.
import type { Deps } from '../../src/platform/deps.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from './factories.js';

/** A new user in `brand` (a new brand by default) with these ACL words; headers send the brand. */
export async function crmUser(deps: Deps, options: { brand?: string; acl?: string[] } = {}) {
  const brand = options.brand ?? (await createBrand(deps)).id;
  const user = await createUser(deps);
  await addMembership(deps, user.id, brand, options.acl ?? ['CRM']);
  const token = await tokenFor(deps, user.id);
  return { brand, user: user.id, headers: { ...bearer(token), 'x-rechat-brand': brand }, bare: bearer(token) };
}

export async function outboxRows(deps: Deps, brand: string) {
  return deps.db.selectFrom('domain_events').selectAll().where('brand', '=', brand).orderBy('id').execute();
}
