// Wire shapes shared by every route: the success envelope, list info, the error body, paging, uuids.
import { Type, type Static, type TSchema, type TObject, type TProperties } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

export const Uuid = Type.String({ format: 'uuid' });
/** Fractional epoch seconds. */
export const EpochSeconds = Type.Number();
/** `T | null`. (Bodies are validated without type coercion — platform/validation.ts — so null stays null.) */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * An optional field that may also be null (`null` = "no value", like leaving it out). Written as
 * `type: [T, 'null']`, not anyOf: a multi-type schema accepts a value of either type as it is, also under an Ajv
 * that coerces (query strings), where an anyOf would coerce before the right branch is tried.
 */
export const optionalNullable = <T extends TSchema>(schema: T) =>
  Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] }));

export const Envelope = <T extends TSchema>(data: T) => Type.Object({ code: Type.Literal('OK'), data });

export const ListInfo = Type.Object({ count: Type.Integer(), total: Type.Integer() }, { additionalProperties: true });

export const ListEnvelope = <T extends TSchema, I extends TProperties = Record<never, never>>(item: T, extraInfo?: I) =>
  Type.Object({
    code: Type.Literal('OK'),
    data: Type.Array(item),
    info: Type.Object({ count: Type.Integer(), total: Type.Integer(), ...(extraInfo ?? ({} as I)) }),
  });

/** The body limit of a route that sets none (app.ts); routes that take more say so (`bodyLimit`). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export const ErrorBody = Type.Object(
  {
    http: Type.Integer(),
    code: Type.String(),
    message: Type.String(),
    attributes: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    // RFC 6749 fields, present on /oauth2/* errors
    error: Type.Optional(Type.String()),
    error_description: Type.Optional(Type.String()),
  },
  { $id: 'ErrorBody' },
);

/** The error statuses a route can answer, for its response schema (OpenAPI lists them). */
export const errorResponses = (...statuses: number[]): Record<number, TObject> =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

/** Standard errors of any authenticated route. */
export const AUTHENTICATED_ERRORS = [400, 401, 403, 404] as const;

/**
 * The largest `start`. PostgreSQL takes OFFSET as a bigint, but JSON numbers past 2^53 are not exact and 2^63 is
 * out of its range; no list here has two billion rows, so anything larger is a client error (400), not a 500.
 */
export const MAX_START = 2_147_483_647;
export const MAX_LIMIT = 1000;

/** Rows to skip: one bounded schema for every `start` (query or body). */
export const Start = (options: { default?: number } = {}) =>
  Type.Integer({ minimum: 0, maximum: MAX_START, description: 'Rows to skip', ...options });
/** Rows to return: one bounded schema for every `limit` (query or body). */
export const Limit = (options: { default?: number; maximum?: number } = {}) =>
  Type.Integer({
    minimum: 1,
    maximum: options.maximum ?? MAX_LIMIT,
    description: `Rows to return (at most ${options.maximum ?? MAX_LIMIT})`,
    ...options,
  });

/**
 * `start`/`limit` of a list route's query string, with the defaults of decisions §1. Ajv fills the defaults, so a
 * handler always has both; the OpenAPI document lists them as optional (platform/openapi.ts).
 */
export const PagingQuery = {
  start: Start({ default: 0 }),
  limit: Limit({ default: 50 }),
};

/**
 * The pattern of a list's `order` query, exactly the text the services' `parseOrder` takes: `+key`, `-key` or `key`
 * with whitespace around it, or ` key` (an unencoded + arrives as a space and means +; a space then a sign does not).
 */
export const orderPattern = (keys: readonly string[]) => `^(?: |(?:[^\\S ]\\s*)?[+-]?)(?:${keys.join('|')})\\s*$`;

/** `associations[]=a.b`, repeated or comma-separated; `omit[]=type.field`. Parsed by platform/associations.ts. */
export const ExpansionQuery = {
  associations: Type.Optional(Type.Array(Type.String())),
  omit: Type.Optional(Type.Array(Type.String())),
};

export const ok = <T>(data: T) => ({ code: 'OK' as const, data });

export const okList = <T, I extends object = Record<never, never>>(rows: T[], total: number, extraInfo?: I) => ({
  code: 'OK' as const,
  data: rows,
  info: { count: rows.length, total, ...(extraInfo ?? ({} as I)) },
});

/**
 * Sends an okList body whose items are JSON texts already (listing pages: listings.stored-record.ts, which writes
 * each text with the item schema's own serializer and is tested against it). The route's response schema still
 * documents the body; its serializer does not run, since Fastify sends a string with a JSON content type as is.
 */
export function sendOkListTexts(
  reply: FastifyReply,
  items: readonly string[],
  total: number,
  extraInfo: object = {},
): FastifyReply {
  const info = JSON.stringify({ count: items.length, total, ...extraInfo });
  // `as never`: the typed reply expects the schema's object; this is that object already serialized.
  return reply
    .type('application/json; charset=utf-8')
    .send(`{"code":"OK","data":[${items.join(',')}],"info":${info}}` as never);
}
