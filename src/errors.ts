// The closed error catalogue (decisions §1). Services throw AppError; platform/error-handler.ts maps it to
// `{http, code, message, attributes?}`. Nothing else decides a status code.

export const ERROR_CATALOGUE = {
  Validation: 400,
  BadRequest: 400,
  UnauthorizedAccess: 401,
  TokenExpired: 401,
  MFARequired: 401,
  AccessForbidden: 403,
  ResourceNotFound: 404,
  MethodNotAllowed: 405,
  Conflict: 409,
  PreconditionFailed: 412,
  // Not in the published list; added so that slow, oversized and non-JSON requests answer with the HTTP status
  // that clients and proxies expect (docs/errors.md).
  RequestTimeout: 408,
  PayloadTooLarge: 413,
  URITooLong: 414,
  UnsupportedMediaType: 415,
  TooManyRequests: 429,
  RequestHeaderFieldsTooLarge: 431,
  Internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Field name → messages, for `Validation` errors. */
export type ErrorAttributes = Record<string, string[]>;

export class AppError extends Error {
  readonly http: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly attributes?: ErrorAttributes,
    /** Extra response headers, e.g. Retry-After for TooManyRequests. */
    readonly headers?: Record<string, string>,
    /** RFC 6749 `error` value when raised by an /oauth2 endpoint (e.g. `invalid_grant`). */
    readonly oauthError?: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.http = ERROR_CATALOGUE[code];
  }
}

export const errors = {
  validation: (message: string, attributes?: ErrorAttributes) => new AppError('Validation', message, attributes),
  /** One invalid field: `invalidField('points', 'must close')` → 400 with attributes.points. */
  invalidField: (field: string, message: string) =>
    new AppError('Validation', `${field} ${message}`, { [field]: [message] }),
  badRequest: (message: string) => new AppError('BadRequest', message),
  unauthorized: (message = 'Authentication is required') => new AppError('UnauthorizedAccess', message),
  tokenExpired: () => new AppError('TokenExpired', 'The access token has expired'),
  mfaRequired: () =>
    new AppError(
      'MFARequired',
      'Multi-factor authentication is required: validate this session with POST /users/self/mfa/validate',
    ),
  forbidden: (message = 'You do not have access to this resource') => new AppError('AccessForbidden', message),
  notFound: (what = 'Resource') => new AppError('ResourceNotFound', `${what} not found`),
  conflict: (message: string) => new AppError('Conflict', message),
  preconditionFailed: (message: string) => new AppError('PreconditionFailed', message),
  tooManyRequests: (retryAfterSeconds: number, message = 'Too many attempts; try again later') =>
    new AppError('TooManyRequests', message, undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
};
