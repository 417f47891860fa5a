// The public face of the templates module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { findInstance, findInstances } from './instances.repository.js';
export { presentInstances } from './instances.service.js';
