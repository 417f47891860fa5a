// `associations` (records to embed) and `omit` (fields to drop), decisions §1.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Names from `associations[]=a.b&associations=c.d,e.f`; unknown names are simply never asked for. */
export function requestedNames(value: unknown): Set<string> {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return new Set(
    list
      .flatMap((item) => String(item).split(','))
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

export function associationsOf(request: FastifyRequest): Set<string> {
  return requestedNames((request.query as Record<string, unknown> | undefined)?.associations);
}

/**
 * Drops `omit[]=type.field` fields from every record of that `type` in the response, at any depth. It works on
 * the serialized JSON (onSend), after the response schema has done its work: dropping a field the schema requires
 * before serialization would make the serializer throw (a 500 for `omit[]=listing.property`). Costs a parse and
 * a stringify, only on responses that asked for it.
 */
export function registerOmit(app: FastifyInstance): void {
  // A callback hook (it never waits): a response that asked for no `omit` costs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const asked = (request.query as Record<string, unknown> | undefined)?.omit;
    done(null, asked === undefined ? payload : omitFields(asked, reply.getHeader('content-type'), payload));
  });
}

/** The payload without the fields `omit` names (the payload itself when it names none, or is not JSON). */
function omitFields(asked: unknown, contentType: unknown, payload: unknown): unknown {
  if (typeof payload !== 'string' || !String(contentType ?? '').includes('json')) return payload;
  const omit = requestedNames(asked);
  if (omit.size === 0) return payload;
  const byType = new Map<string, string[]>();
  for (const name of omit) {
    const [type, field] = name.split('.');
    if (!type || !field) continue;
    byType.set(type, [...(byType.get(type) ?? []), field]);
  }
  if (byType.size === 0) return payload;
  const body = JSON.parse(payload) as unknown;
  stripFields(body, byType, 0);
  return JSON.stringify(body);
}

function stripFields(value: unknown, byType: Map<string, string[]>, depth: number): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) stripFields(item, byType, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const fields = typeof record.type === 'string' ? byType.get(record.type) : undefined;
  for (const field of fields ?? []) delete record[field];
  for (const child of Object.values(record)) stripFields(child, byType, depth + 1);
}
