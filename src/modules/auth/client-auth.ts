// Client authentication at /oauth2/token and /oauth2/revoke (RFC 6749 §2.3): HTTP Basic or the body, never
// both with different identities. Confidential clients (first party, partner) must prove their secret;
// public clients only name themselves (they prove possession with PKCE instead).
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { clientSecretMatches } from './clients.service.js';
import { findLiveClient, type ClientRow } from './clients.repository.js';
import { oauthErrors } from './oauth-errors.js';

export interface ClientCredentials {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

/** Credentials from the Authorization header (if Basic) merged with those of the body. */
export function clientCredentials(authorization: string | undefined, body: ClientCredentials): ClientCredentials {
  const basic = parseBasic(authorization);
  if (!basic) return { clientId: body.clientId || undefined, clientSecret: body.clientSecret || undefined };
  if (body.clientSecret)
    throw oauthErrors.invalidRequest('Send the client secret either with HTTP Basic or in the body, not both');
  if (body.clientId && body.clientId !== basic.clientId)
    throw oauthErrors.invalidRequest('client_id in the body differs from the HTTP Basic client');
  return basic;
}

/** The authenticated client, or 401 invalid_client (unknown, deleted, wrong or missing secret). */
export async function authenticateClient(database: Database, credentials: ClientCredentials): Promise<ClientRow> {
  if (!credentials.clientId)
    throw oauthErrors.invalidClient(
      'Client authentication is required: send client_id (and client_secret) in the body or with HTTP Basic',
    );
  const client = await findLiveClient(database, credentials.clientId);
  if (!client) throw oauthErrors.invalidClient('Unknown client or wrong client secret');
  if (client.kind === 'public') {
    if (credentials.clientSecret)
      throw oauthErrors.invalidClient('A public client has no secret: authenticate with PKCE instead');
    return client;
  }
  if (!credentials.clientSecret || !clientSecretMatches(client.secret_hash, credentials.clientSecret)) {
    throw oauthErrors.invalidClient('Unknown client or wrong client secret');
  }
  return client;
}

export function assertGrantAllowed(client: ClientRow, grantType: string): void {
  if (!client.grants.includes(grantType)) {
    throw new AppError(
      'BadRequest',
      `This client may not use the ${grantType} grant`,
      undefined,
      undefined,
      'unauthorized_client',
    );
  }
}

function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthErrors.invalidClient('HTTP Basic credentials must be client_id:client_secret');
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before joining.
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw oauthErrors.invalidClient('HTTP Basic credentials are not correctly encoded');
  }
}
