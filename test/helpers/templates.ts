// Test support for templates, instances and print campaigns: a user with a token in a brand.
import type { Deps } from '../../src/platform/deps.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from './factories.js';

/** A new user in `brand` (a new brand by default) with these ACL words (Marketing by default); headers send the brand. */
export async function marketer(deps: Deps, options: { brand?: string; acl?: string[] } = {}) {
  const brand = options.brand ?? (await createBrand(deps)).id;
  const user = await createUser(deps, { first_name: 'Dana', last_name: 'Reyes' });
  await addMembership(deps, user.id, brand, options.acl ?? ['Marketing']);
  const token = await tokenFor(deps, user.id);
  return { brand, user: user.id, headers: { ...bearer(token), 'x-rechat-brand': brand }, bare: bearer(token) };
}
