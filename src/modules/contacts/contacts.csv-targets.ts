// The contact fields a CSV column maps to, apart from the parser (csv-parse) so that the command table
// (`gable import contacts --map`) lists them without loading it.
export const TEXT_TARGETS = [
  'title',
  'first_name',
  'middle_name',
  'last_name',
  'nickname',
  'marketing_name',
  'partner_first_name',
  'partner_last_name',
  'partner_email',
  'company',
  'job_title',
  'source',
] as const;
export const LIST_TARGETS = ['email', 'phone', 'tags', 'website'] as const;
export const DATE_TARGETS = ['birthday', 'home_anniversary', 'wedding_anniversary'] as const;
export const ADDRESS_TARGETS = [
  'address.line1',
  'address.line2',
  'address.city',
  'address.state',
  'address.postcode',
  'address.country',
] as const;
export const CSV_TARGETS = [...TEXT_TARGETS, ...LIST_TARGETS, ...DATE_TARGETS, ...ADDRESS_TARGETS, 'ignore'] as const;
export type CsvTarget = (typeof CSV_TARGETS)[number];
