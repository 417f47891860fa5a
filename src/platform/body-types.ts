// Which content types a route's body may have. Fastify parses JSON, form-encoded (@fastify/formbody) and plain
// text for every route, so a JSON body that curl sent as `application/x-www-form-urlencoded` (its default) became
// one unknown form field, was ignored as an unknown field, and created a blank record. A route takes JSON unless
// its schema says otherwise in `consumes` (also what the OpenAPI document states); a body of any other type is
// refused with 415 naming the accepted ones, before it is parsed, so nothing is written.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { BODY_METHODS } from './openapi.js';

export const JSON_BODY = ['application/json'] as const;
export const FORM_BODY = ['application/x-www-form-urlencoded'] as const;
export const FORM_OR_JSON_BODY = [...JSON_BODY, ...FORM_BODY] as const;

/** Whether the request carries a body: Fastify's own test (a length above 0, or a chunked one). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return length === undefined ? request.headers['transfer-encoding'] !== undefined : length !== '0';
}

/** The body types a route takes: its schema's `consumes`, else JSON. */
function acceptedTypes(request: FastifyRequest): readonly string[] {
  return (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes ?? JSON_BODY;
}

export function registerBodyTypes(app: FastifyInstance): void {
  // A callback hook (it never waits): no promise on every request, most of which have no body.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    done(refusalOf(request), payload);
  });
}

/** The 415 for a body of a type the route does not take; null when it takes it (or there is none). */
function refusalOf(request: FastifyRequest): AppError | null {
  if (!BODY_METHODS.has(request.method) || !request.routeOptions.url || !hasBody(request)) return null;
  const header = request.headers['content-type'];
  const type = header?.split(';', 1)[0]!.trim().toLowerCase() ?? '';
  const accepted = acceptedTypes(request);
  if (accepted.includes(type)) return null;
  return new AppError(
    'UnsupportedMediaType',
    `This endpoint takes a body of type ${accepted.join(' or ')}; ` +
      (type ? `${type} is not one of them` : 'the request has none (send a Content-Type header)'),
  );
}
