// The public face of the brands module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export {
  assertReach,
  brandReach,
  reachableBrandIds,
  reachFrom,
  reachOf,
  requireAccess,
  subtreeIds,
  subtreeQuery,
  type AclWord,
  type ReachColumns,
} from './access.js';
export { headerBrand, namedBrand, requireBrandContext } from './brand-context.js';
export {
  ensureBrand,
  findBrandsWithParentNames,
  findLiveBrand,
  findLiveMembership,
  insertMembership,
  updateMembership,
} from './brands.repository.js';
export { isBrandHostname, type HostBrand } from './hostnames.repository.js';
export { whiteLabelBrand } from './hostnames.service.js';
export { brandExpansion, firstLiveBrandPalette, getBrandProfile } from './profile.service.js';
