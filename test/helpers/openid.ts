// Test support for OpenID Connect: the code flow through the real pages (over inject) ending in the token
// response, and id_tokens checked with jose against the server's own JWKS, as a relying party checks them.
import { createLocalJWKSet, jwtVerify, type JWTPayload, type JWTVerifyResult } from 'jose';
import type { FastifyInstance } from 'fastify';
import { InjectBrowser, PARTNER_REDIRECT, redirectParams, startSignedIn, type World } from './web.js';

export const ISSUER = 'http://gable.test';

export interface CodeFlowClient {
  client_id: string;
  client_secret: string | null;
}

/** GET /oauth2/auth with `params`, sign in, approve (the brand is preselected), and exchange the code. */
export async function codeFlow(
  app: FastifyInstance,
  world: World,
  client: CodeFlowClient,
  params: Record<string, string>,
  signIn: (browser: InjectBrowser, start: Record<string, string>) => ReturnType<typeof startSignedIn> = (b, p) =>
    startSignedIn(b, world, p),
) {
  const browser = new InjectBrowser(app);
  const consent = await signIn(browser, {
    client_id: client.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 'oidc-state',
    brandId: world.brokerage.id,
    ...params,
  });
  if (!consent.body.includes('name="decision"')) throw new Error(`not at consent:\n${consent.body.slice(0, 400)}`);
  const approved = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
  const code = redirectParams(approved).query.get('code');
  if (!code) throw new Error(`no code in ${String(approved.headers.location)}`);
  const res = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      redirect_uri: PARTNER_REDIRECT,
      code,
      client_id: client.client_id,
      ...(client.client_secret ? { client_secret: client.client_secret } : {}),
    }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`exchange answered ${res.statusCode}: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string; id_token?: string; brand: string };
}

/** The id_token verified against GET /oauth2/jwks as it is now (signature, iss, aud, exp). */
export async function verifyIdToken(
  app: FastifyInstance,
  idToken: string,
  audience: string,
  currentDate?: Date,
): Promise<JWTVerifyResult<JWTPayload>> {
  const jwks = (await app.inject({ method: 'GET', url: '/oauth2/jwks' })).json();
  return jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: ISSUER,
    audience,
    algorithms: ['RS256', 'ES256'],
    ...(currentDate ? { currentDate } : {}),
  });
}
