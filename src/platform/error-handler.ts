// One place maps every failure to the error body of decisions §1. Catalogue errors pass through; framework
// errors (validation, bad JSON, oversized bodies) become their 4xx; anything else is a 500 whose detail goes
// only to the log, under the request id the response carries.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CATALOGUE, type ErrorAttributes } from '../errors.js';
import { LONGEST_PATH_PARAM, segmentTooLong } from './path-segments.js';
import { DEFAULT_BODY_LIMIT_BYTES } from './schemas.js';
import { CUSTOM_FORMATS } from './validation.js';
import { byteSize } from '../lib/byte-size.js';

interface ErrorBodyOut {
  http: number;
  code: string;
  message: string;
  attributes?: ErrorAttributes;
  error?: string;
  error_description?: string;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const appError = toAppError(error, request.routeOptions.bodyLimit);
    if (appError.http >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, message: appError.message }, 'request refused');
    return send(request, reply, appError);
  });
}

/**
 * Errors the router raises before any route runs (Fastify's `frameworkErrors`): a malformed percent-escape or
 * invalid UTF-8 in the path, a path segment longer than any route takes (platform/path-segments.ts). Same body as
 * every other error.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? segmentTooLong(LONGEST_PATH_PARAM)
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('BadRequest', 'The URL is not valid: malformed percent-encoding or invalid UTF-8 in the path')
        : toAppError(error);
  request.log.info({ code: appError.code, message: appError.message }, 'request refused');
  reply.header('x-request-id', request.id);
  void send(request, reply, appError);
}

const CLIENT_ERRORS: Record<string, AppError> = {
  HPE_HEADER_OVERFLOW: new AppError(
    'RequestHeaderFieldsTooLarge',
    'The request line and headers are larger than 16 KiB',
  ),
  ERR_HTTP_REQUEST_TIMEOUT: new AppError('RequestTimeout', 'The request was not received in time'),
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (oversized headers, timeouts, garbage): answered
 * on the socket in the same error shape, then the connection is closed, as Node itself does.
 */
export function clientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = CLIENT_ERRORS[error.code ?? ''] ?? new AppError('BadRequest', 'The HTTP request is malformed');
  if (socket.writable) {
    const body = JSON.stringify({ http: appError.http, code: appError.code, message: appError.message });
    socket.write(
      `HTTP/1.1 ${appError.http} ${STATUS_CODES[appError.http]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function send(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const body: ErrorBodyOut =
    error.http >= 500
      ? { http: 500, code: 'Internal', message: 'Internal Error' }
      : {
          http: error.http,
          code: error.code,
          message: error.message,
          ...(error.attributes ? { attributes: error.attributes } : {}),
        };
  if (routeConfig(request)?.oauthErrors) {
    body.error = error.oauthError ?? defaultOAuthError(error.http, routeConfig(request)?.auth);
    body.error_description = body.message;
  }
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  // A bearer-token failure challenges for a token, unless the error named its own scheme (client auth: Basic).
  if ((error.code === 'UnauthorizedAccess' || error.code === 'TokenExpired') && !error.headers?.['www-authenticate'])
    reply.header('www-authenticate', 'Bearer');
  return reply.status(body.http).type('application/json; charset=utf-8').send(body);
}

/** The route's config; a request refused by the router (frameworkErrors) has no route, and no config. */
function routeConfig(request: FastifyRequest) {
  try {
    return request.routeOptions.config;
  } catch {
    return undefined;
  }
}

/** A 401 of a client-authenticated endpoint (the token endpoint) is the client's; of a bearer one, the token's. */
function defaultOAuthError(http: number, auth: string | undefined): string {
  if (http === 401) return auth === 'none' ? 'invalid_client' : 'invalid_token';
  if (http >= 500) return 'server_error';
  return 'invalid_request';
}

/** PostgreSQL's SQLSTATEs for a NUL in text: character_not_in_repertoire, untranslatable_character. */
const NUL_IN_TEXT = new Set(['22021', '22P05']);

/** Ajv's message, in the words the services use for the same rules: the allowed values, our formats' own text. */
function issueMessage(issue: { keyword: string; params: unknown; message?: string }): string {
  const params = issue.params as { allowedValues?: unknown[]; format?: string };
  if (issue.keyword === 'enum' && params.allowedValues) return `must be one of ${params.allowedValues.join(', ')}`;
  if (issue.keyword === 'format' && params.format && params.format in CUSTOM_FORMATS)
    return CUSTOM_FORMATS[params.format]!.message;
  return issue.message ?? 'is invalid';
}

/** `bodyLimit`: the route's own limit in bytes (routes may raise the server's), named in a 413's message. */
export function toAppError(error: unknown, bodyLimit: number = DEFAULT_BODY_LIMIT_BYTES): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const attributes: ErrorAttributes = {};
    for (const issue of fastifyError.validation) {
      const missing = (issue.params as { missingProperty?: string } | undefined)?.missingProperty;
      const path =
        [issue.instancePath.replace(/^\//, '').replace(/\//g, '.'), missing].filter(Boolean).join('.') ||
        fastifyError.validationContext ||
        'request';
      (attributes[path] ??= []).push(missing ? 'is required' : issueMessage(issue));
    }
    const [field, messages] = Object.entries(attributes)[0] ?? ['request', ['is invalid']];
    return new AppError('Validation', `${field} ${messages[0]}`, attributes);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'PayloadTooLarge',
        `The request body is larger than this route's limit of ${byteSize(bodyLimit)}`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'UnsupportedMediaType',
        'Send the body as application/json or application/x-www-form-urlencoded',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BadRequest', 'The JSON body is empty');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('BadRequest', 'The body is not valid JSON');
  }
  if (error instanceof SyntaxError || fastifyError.statusCode === 400)
    return new AppError('BadRequest', 'The body is not valid JSON');
  // Text with U+0000 (valid JSON, a valid query string) is refused by PostgreSQL at the first statement that
  // carries it; whatever the route, that is the client's input, not our failure. (The statement failed, so
  // its transaction, if any, rolled back: nothing changed.)
  if (NUL_IN_TEXT.has((error as { code?: unknown }).code as string))
    return new AppError('BadRequest', 'Text must not contain the NUL character (U+0000)');
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const code =
      (Object.keys(ERROR_CATALOGUE) as (keyof typeof ERROR_CATALOGUE)[]).find((c) => ERROR_CATALOGUE[c] === status) ??
      'BadRequest';
    return new AppError(code, fastifyError.message);
  }
  return new AppError('Internal', 'Internal Error');
}
