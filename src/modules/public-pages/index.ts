// The public face of the public-pages module (issue 29, docs/architecture.md "Layers"): what other modules may
// import. The pages themselves are routes (public-pages.routes.ts); other modules only need to link to them.
export { listingLinkUrl, listingPageUrl, signedBrandParameter, verifiedBrand } from './listing-link.js';
export { alertPageUrl, alertPreferencesUrl } from './alert-token.js';
