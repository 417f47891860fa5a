// The public face of the boundaries module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { containmentRings, findLiveBoundaryTitles } from './boundaries.repository.js';
export { getBoundary } from './boundaries.service.js';
export { boundaryContainsPoint, ringsContainPoint, type ContainmentRing } from './containment.query.js';
