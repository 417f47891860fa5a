// The words of brands the command table names (`gable admin brand create --type`, `member add --acl`), apart from
// access.ts and brands.service.ts so that `gable --help` does not load the query builder behind them.
export const ACL_WORDS = ['Admin', 'CRM', 'Marketing', 'Deals'] as const;
export const BRAND_TYPES = ['Brokerage', 'Region', 'Office', 'Team', 'Personal', 'Other'] as const;
