// Helpers for tests of the OAuth 2 token server and MFA: token requests in JSON, form or Basic form; TOTP codes.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TOTP, URI } from 'otpauth';
import type { TestApp } from './app.js';
import { TEST_PASSWORD } from './factories.js';

export interface TokenRequestOptions {
  /** Send as application/x-www-form-urlencoded instead of JSON. */
  form?: boolean;
  /** Send these client credentials with HTTP Basic (and not in the body). */
  basic?: { client_id: string; client_secret: string };
  /** Client IP address as the server sees it. */
  ip?: string;
  url?: string;
}

export function postToken(
  app: FastifyInstance,
  fields: Record<string, string | undefined>,
  options: TokenRequestOptions = {},
): Promise<LightMyRequestResponse> {
  const body = Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const headers: Record<string, string> = {};
  if (options.basic) {
    const encode = (part: string) => encodeURIComponent(part);
    headers.authorization = `Basic ${Buffer.from(`${encode(options.basic.client_id)}:${encode(options.basic.client_secret)}`).toString('base64')}`;
  }
  return app.inject({
    method: 'POST',
    url: options.url ?? '/oauth2/token',
    headers: { ...headers, 'content-type': options.form ? 'application/x-www-form-urlencoded' : 'application/json' },
    payload: options.form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
}

interface ClientLike {
  client_id: string;
  client_secret: string | null;
}

/** Password grant with the default test password; returns the raw response. */
export function passwordLogin(
  app: FastifyInstance,
  client: ClientLike,
  email: string,
  password = TEST_PASSWORD,
  options: TokenRequestOptions = {},
) {
  return postToken(
    app,
    {
      grant_type: 'password',
      client_id: client.client_id,
      client_secret: client.client_secret ?? undefined,
      username: email,
      password,
    },
    options,
  );
}

export function refresh(app: FastifyInstance, client: ClientLike, refreshToken: string) {
  return postToken(app, {
    grant_type: 'refresh_token',
    client_id: client.client_id,
    client_secret: client.client_secret ?? undefined,
    refresh_token: refreshToken,
  });
}

/** The current code of the authenticator behind an otpauth:// URI, at the test clock's time (± steps). */
export function totpCode(t: TestApp, mfaUrl: string, stepOffset = 0): string {
  const otp = URI.parse(mfaUrl);
  if (!(otp instanceof TOTP)) throw new Error('not a TOTP URI');
  return otp.generate({ timestamp: t.clock.now().getTime() + stepOffset * otp.period * 1000 });
}
