// The default MLS of `gable seed listings`, apart from listings.seed.ts so that the command table names it
// without loading the seeder.
export const DEFAULT_SEED_MLS = 'GABLE';
