// `associations` (records to embed) and `omit` (fields to drop), decisions §1.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Names from `associations[]=a.b&associations=c.d,e.f`; unknown names are simply never asked for. */
export function requestedNames(value: unknown): Set<string> {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return new Set(list.flatMap((item) => String(item).split(',')).map((name) => name.trim()).filter(Boolean));
}

export function associationsOf(request: FastifyRequest): Set<string> {
  return requestedNames((request.query as Record<string, unknown> | undefined)?.associations);
}

/** Drops `omit[]=type.field` fields from every record of that `type` in the payload, at any depth. */
export function registerOmit(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const omit = requestedNames((request.query as Record<string, unknown> | undefined)?.omit);
    if (omit.size === 0 || payload === null || typeof payload !== 'object') return payload;
    const byType = new Map<string, string[]>();
    for (const name of omit) {
      const [type, field] = name.split('.');
      if (!type || !field) continue;
      byType.set(type, [...(byType.get(type) ?? []), field]);
    }
    stripFields(payload, byType, 0);
    return payload;
  });
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
