// Test support for the authorization pages: a cookie-keeping "browser" over app.inject and a small world of
// brands, a user and partner clients. Used only by src/web/*.test.ts.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Deps } from '../../src/platform/deps.js';
import { addMembership, createBrand, createClient, createUser } from './factories.js';

export const PARTNER_REDIRECT = 'http://127.0.0.1:4999/callback';

export class InjectBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly host = 'gable.test',
  ) {}

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: 'GET', url, headers: this.headers() }));
  }

  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
    );
  }

  /** Follows a 303 back to the step page, as a browser does after a form POST. */
  async follow(res: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    return res.statusCode === 303 ? this.get(res.headers.location as string) : res;
  }

  /** POSTs a form of the page, with its hidden CSRF and request fields. */
  async submit(
    page: LightMyRequestResponse,
    action: string,
    fields: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.post(action, { ...hiddenFields(page.body), ...fields });
  }

  private headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { host: this.host, ...(cookie ? { cookie } : {}) };
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of res.cookies as { name: string; value: string }[]) this.cookies.set(cookie.name, cookie.value);
    return res;
  }
}

export function hiddenFields(body: string): { csrf: string; request: string } {
  const csrf = /name="csrf" value="([^"]+)"/.exec(body)?.[1];
  const request = /name="request" value="([^"]+)"/.exec(body)?.[1];
  if (!csrf || !request) throw new Error(`no form guards on page:\n${body.slice(0, 500)}`);
  return { csrf, request };
}

export function authorizeUrl(params: Record<string, string>): string {
  return `/oauth2/auth?${new URLSearchParams(params).toString()}`;
}

/** Brokerage → office, a user who is a member of the brokerage, an unrelated brand, partner and public clients. */
export async function createWorld(deps: Deps) {
  const brokerage = await createBrand(deps, { name: 'Acme Realty' });
  const office = await createBrand(deps, { name: 'Acme Downtown', parent: brokerage.id });
  const other = await createBrand(deps, { name: 'Other Brokerage' });
  const user = await createUser(deps, { first_name: 'Ada', last_name: 'Agent' });
  await addMembership(deps, user.id, brokerage.id);
  const partner = await createClient(deps, 'partner', {
    name: 'Listing Syndicator',
    redirect_uris: [PARTNER_REDIRECT, 'https://partner.example/cb?tenant=7'],
  });
  const publicClient = await createClient(deps, 'public', { name: 'Showing App', redirect_uris: [PARTNER_REDIRECT] });
  const firstParty = await createClient(deps, 'first_party', { redirect_uris: [PARTNER_REDIRECT] });
  return { brokerage, office, other, user, partner, publicClient, firstParty };
}

export type World = Awaited<ReturnType<typeof createWorld>>;

/** GET /oauth2/auth then sign in with the password; returns the page after sign-in. */
export async function startSignedIn(
  browser: InjectBrowser,
  world: World,
  params: Record<string, string>,
  password = 'correct horse battery staple',
) {
  const start = await browser.get(authorizeUrl(params));
  if (start.statusCode !== 200) throw new Error(`authorize answered ${start.statusCode}: ${start.body.slice(0, 300)}`);
  return browser.follow(await browser.submit(start, '/oauth2/auth/sign-in', { email: world.user.email, password }));
}

/** The query or fragment parameters of a redirect to the partner. */
export function redirectParams(res: LightMyRequestResponse): {
  url: URL;
  query: URLSearchParams;
  fragment: URLSearchParams;
} {
  const url = new URL(res.headers.location as string);
  return { url, query: url.searchParams, fragment: new URLSearchParams(url.hash.slice(1)) };
}
