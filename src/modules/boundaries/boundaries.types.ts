// The boundary types, apart from the geometry code of boundaries.model.ts so that the CLI's command table
// (`gable import boundaries --type`) names them without loading it.
export const BOUNDARY_TYPES = ['country', 'state', 'county', 'city', 'neighborhood', 'postal_code'] as const;
export type BoundaryType = (typeof BOUNDARY_TYPES)[number];
