// The public face of the brands module (issue 29, docs/architecture.md "Layers"): what other modules may import.
// So far the query functions they read and write with; never a table. Other modules import this file, not the
// module's repository, so the repository can change behind it.
export {
  findLiveBrand,
  ensureBrand,
  findLiveMembership,
  insertMembership,
  updateMembership,
  findBrandsWithParentNames,
} from './brands.repository.js';
export { isBrandHostname } from './hostnames.repository.js';
