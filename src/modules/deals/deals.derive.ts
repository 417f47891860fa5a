// What is computed from a deal's fields on every write, so it is never stale: the title (when none was given)
// and the lexemes of `POST /deals/filter` `query` (title, address, role names).
import { lexemesOf } from '../../lib/search-words.js';
import type { DealContext, DealRoleValue } from './deals.columns.js';

export interface DealFields {
  deal_type: string;
  property_type: string;
  title_given: string | null;
  listing: string | null;
  status: string;
  context: DealContext;
  roles: DealRoleValue[];
}

const text = (value: string | number | undefined): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The address of the context: full_address, else its parts joined. */
export function addressOf(context: DealContext): string | null {
  const full = text(context.full_address);
  if (full) return full;
  const street = [text(context.street_address), text(context.unit_number)].filter(Boolean).join(' ');
  const cityLine = [text(context.city), [text(context.state), text(context.postal_code)].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [street, cityLine].filter(Boolean).join(', ') || null;
}

/** The given title, else the address, else "<deal_type> deal". */
export function titleOf(fields: Pick<DealFields, 'title_given' | 'context' | 'deal_type'>): string {
  return fields.title_given ?? addressOf(fields.context) ?? `${fields.deal_type} deal`;
}

export function dealLexemes(fields: DealFields): string[] {
  return lexemesOf([
    titleOf(fields),
    addressOf(fields.context),
    text(fields.context.mls_number),
    ...fields.roles.flatMap((r) => [r.legal_first_name, r.legal_last_name]),
  ]);
}
