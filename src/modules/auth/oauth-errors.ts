// The RFC 6749 §5.2 errors of the token and revocation endpoints, mapped onto the catalogue (decisions §1):
// the error handler adds `error`/`error_description` beside `http`, `code`, `message`.
import { AppError, type ErrorAttributes } from '../../errors.js';

const CLIENT_CHALLENGE = { 'www-authenticate': 'Basic realm="oauth2", charset="UTF-8"' };

export const oauthErrors = {
  /** 400: a required field missing, duplicated or malformed. */
  invalidRequest: (message: string, attributes?: ErrorAttributes) =>
    new AppError(attributes ? 'Validation' : 'BadRequest', message, attributes, undefined, 'invalid_request'),
  /** 400: one missing field, with its attribute. */
  missingField: (field: string) =>
    new AppError('Validation', `${field} is required`, { [field]: ['is required'] }, undefined, 'invalid_request'),
  /**
   * 401: unknown client, wrong secret, deleted client. The challenge names the scheme clients authenticate
   * with (RFC 6749 §5.2: HTTP Basic), not the Bearer challenge of the API's other 401s.
   */
  invalidClient: (message: string) =>
    new AppError('UnauthorizedAccess', message, undefined, CLIENT_CHALLENGE, 'invalid_client'),
  /** 400: wrong password, unknown/expired/revoked/reused refresh token or code, PKCE or redirect mismatch. */
  invalidGrant: (message: string) => new AppError('BadRequest', message, undefined, undefined, 'invalid_grant'),
  /** 400: an unknown scope, one the client may not ask for, or a refresh asking for more than its login has. */
  invalidScope: (message: string) =>
    new AppError('BadRequest', message, { scope: [message] }, undefined, 'invalid_scope'),
  unsupportedGrantType: (grantType: string) =>
    new AppError(
      'BadRequest',
      `Unsupported grant_type ${JSON.stringify(grantType)}`,
      { grant_type: ['is not supported'] },
      undefined,
      'unsupported_grant_type',
    ),
};
