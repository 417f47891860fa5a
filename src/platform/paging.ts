// Paging leniency for existing clients (decisions §19), in one place for every route whose body pages: in a JSON
// body `start`, `limit` and `offset` may be decimal-integer strings ("75"), as the original server parsed them,
// and `offset` (body or query string) is another name for `start`. Anything else that is not an integer still
// fails the route's schema (400). Routes opt in with `preValidation: lenientPaging`.
import type { FastifyRequest } from 'fastify';

const DECIMAL_INTEGER = /^(0|[1-9][0-9]{0,15})$/;
const PAGING_FIELDS = ['start', 'limit', 'offset'] as const;

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export async function lenientPaging(request: FastifyRequest): Promise<void> {
  if (isFields(request.body)) {
    const body = request.body;
    for (const field of PAGING_FIELDS) {
      const value = body[field];
      if (typeof value === 'string' && DECIMAL_INTEGER.test(value)) body[field] = Number(value);
    }
    aliasOffset(body);
  }
  if (isFields(request.query)) aliasOffset(request.query);
}

/** `offset` is `start` when `start` is absent; either way `offset` itself is gone before validation. */
function aliasOffset(fields: Fields): void {
  if (!('offset' in fields)) return;
  if (fields.start === undefined) fields.start = fields.offset;
  delete fields.offset;
}
