// The template language (docs/templates.md): Liquid (liquidjs, ADR 0012-print-liquidjs), made safe for text
// that brands write. Every output is HTML-escaped (`raw` escapes too), there is no file system (include, render
// and layout find nothing), objects expose only their own properties, and parsing and rendering are bounded in
// time and memory. A variable the records do not have renders empty and is reported.
import type { Template } from 'liquidjs';
import { safeLiquid } from '../../lib/safe-liquid.js';
import { errors } from '../../errors.js';

const engine = safeLiquid({ escape: true, parseLimit: 2_000_000, renderLimit: 2_000, memoryLimit: 50_000_000 });
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
/** `{{ listing.price | money }}` → $1,250,000 (empty when there is no number). */
engine.registerFilter('money', (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? USD.format(value) : '',
);
/** `{{ listing.property.square_meters | sqft }}` → 2,150 (areas are stored in m², decisions §5). */
engine.registerFilter('sqft', (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10.7639).toLocaleString('en-US') : '',
);

/** The roots a template may read, and which record input each needs. */
export const TEMPLATE_ROOTS = ['user', 'brand', 'listing', 'listings', 'contact', 'contacts'] as const;
export const INPUT_OF_ROOT: Record<string, 'user' | 'listing' | 'contact' | undefined> = {
  user: 'user',
  listing: 'listing',
  listings: 'listing',
  contact: 'contact',
  contacts: 'contact',
};

function parse(html: string): Template[] {
  try {
    return engine.parse(html);
  } catch (error) {
    throw errors.invalidField(
      'html',
      `is not a valid template: ${(error as Error).message.split('\n')[0]?.slice(0, 300) ?? 'parse error'}`,
    );
  }
}

/** The variable paths a template reads (`listing.price`, `user.first_name`), sorted and unique. */
export function variablesOf(html: string): string[] {
  const segments = engine.globalVariableSegmentsSync(parse(html));
  const paths = segments.map((segment) =>
    segment.filter((part) => typeof part === 'string' || typeof part === 'number').join('.'),
  );
  return [...new Set(paths)].sort();
}

/** Which records (listing, contact, user) a template needs, from the variables it reads. */
export function inputsOf(variables: string[]): string[] {
  const inputs = new Set<string>();
  for (const path of variables) {
    const input = INPUT_OF_ROOT[path.split('.')[0] ?? ''];
    if (input) inputs.add(input);
  }
  return [...inputs].sort();
}

function lookup(context: Record<string, unknown>, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    if (Array.isArray(value) && (part === 'size' || part === 'first' || part === 'last')) {
      // Liquid's array properties
      value = part === 'size' ? value.length : part === 'first' ? value[0] : value[value.length - 1];
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Renders a template with the records; `unknown` lists the variables that had no value (rendered empty). */
export async function renderTemplate(
  html: string,
  context: Record<string, unknown>,
): Promise<{ html: string; unknown: string[] }> {
  const templates = parse(html);
  const unknown = variablesOf(html).filter(
    (path) => lookup(context, path) === undefined || lookup(context, path) === null,
  );
  try {
    return { html: await engine.render(templates, context), unknown };
  } catch (error) {
    throw errors.invalidField(
      'html',
      `could not be rendered: ${(error as Error).message.split('\n')[0]?.slice(0, 300) ?? 'render error'}`,
    );
  }
}
