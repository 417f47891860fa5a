// The brand a request acts in when its path has no `:brand` (decisions §1): `X-RECHAT-BRAND`, else the user's
// active brand, else their newest membership. A brand-bound token with no header acts in its bound brand.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { requireAccess } from './access.js';
import { findNewestMembershipBrand } from './brands.repository.js';
import { actorOf } from '../auth/index.js';
import { isUuid } from '../../lib/uuid.js';

export const BRAND_HEADER = 'x-rechat-brand';

/** The X-RECHAT-BRAND value, trimmed and lower-cased (malformed → 400); undefined without one. Not an access check. */
export function namedBrand(request: FastifyRequest): string | undefined {
  const raw = request.headers[BRAND_HEADER];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === '') return undefined;
  if (!isUuid(value)) throw errors.invalidField('X-RECHAT-BRAND', 'must be a brand uuid');
  return value.toLowerCase();
}

/** The header's brand, checked for access (malformed → 400, unreachable → 403); undefined without a header. */
export async function headerBrand(deps: Deps, request: FastifyRequest): Promise<string | undefined> {
  const brand = namedBrand(request);
  if (brand === undefined) return undefined;
  await requireAccess(deps.db, actorOf(request), brand, 'Member', { denied: 'forbidden' });
  return brand;
}

/** The brand of the request, or null when the user has none at all. */
export async function brandContext(deps: Deps, request: FastifyRequest): Promise<string | null> {
  const fromHeader = await headerBrand(deps, request);
  if (fromHeader) return fromHeader;
  const actor = actorOf(request);
  if (actor.boundBrand) return actor.boundBrand;
  if (!actor.userId) return null;
  if (actor.activeBrand) return actor.activeBrand;
  return findNewestMembershipBrand(deps.db, actor.userId);
}

/** Like brandContext, but a request that needs a brand and has none is a 400. */
export async function requireBrandContext(deps: Deps, request: FastifyRequest): Promise<string> {
  const brand = await brandContext(deps, request);
  if (!brand) throw errors.badRequest('No brand: send X-RECHAT-BRAND or set an active brand');
  return brand;
}
