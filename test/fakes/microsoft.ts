// A loopback fake of the Microsoft identity platform (v2.0 authorize + token: authorization code with PKCE S256,
// refresh with rotation, invalid_grant) and of the Graph calls the server makes (/me, /me/photo/$value, contacts
// delta). It speaks the protocol over real HTTP, so the server's own code runs unchanged against it. Also started
// on its own by test/fakes/microsoft-server.ts for trying the browser flow by hand (docs/extmail.md).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAccount {
  id: string;
  mail: string;
  displayName: string;
  givenName?: string;
  surname?: string;
  /** JPEG bytes served at /me/photo/$value (404 without). */
  photo?: Buffer;
}

export interface FakeContact {
  id: string;
  givenName?: string | null;
  surname?: string | null;
  displayName?: string | null;
  emailAddresses?: { address: string; name?: string }[];
  mobilePhone?: string | null;
  homePhones?: string[];
  businessPhones?: string[];
  birthday?: string | null;
  companyName?: string | null;
  jobTitle?: string | null;
  homeAddress?: Record<string, string>;
  businessAddress?: Record<string, string>;
}

export interface FakeRequest {
  method: string;
  path: string;
  form?: URLSearchParams;
  authorization?: string;
}

interface Grant {
  account: FakeAccount;
  scope: string;
}

export interface FakeMicrosoftOptions {
  clientId?: string;
  clientSecret?: string;
  /** Redirect URIs registered for the app (authorize refuses others). */
  redirectUris?: string[];
  tenant?: string;
  accessSeconds?: number;
}

export class FakeMicrosoft {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tenant: string;
  redirectUris: string[];
  accessSeconds: number;
  /** Who signs in at the next authorize. */
  account: FakeAccount = {
    id: 'remote-1',
    mail: 'agent@contoso.test',
    displayName: 'Ada Agent',
    givenName: 'Ada',
    surname: 'Agent',
  };
  /** The next authorize answers error=access_denied (the user declined). */
  declineNext = false;
  /** Scopes the user grants (default: all that were asked). */
  grantOnly: string[] | null = null;
  /** Graph answers 429/503 with Retry-After to the next `count` calls. */
  private throttle = { count: 0, status: 429, retryAfter: '2' };
  private garbage = 0;
  readonly requests: FakeRequest[] = [];
  /** What `POST /me/sendMail` received, with the account it was sent from. */
  readonly sent: { from: string; message: Record<string, unknown>; saveToSentItems: unknown }[] = [];
  /** Contacts of each account's mailbox, by account id then contact id. */
  readonly mailboxes = new Map<string, Map<string, FakeContact>>();
  /** Removed contact ids per account, reported by the next delta round after their removal. */
  private readonly removed = new Map<string, Map<string, number>>();
  private readonly changedAt = new Map<string, Map<string, number>>();
  private version = 0;
  pageSize = 100;
  private readonly codes = new Map<
    string,
    { account: FakeAccount; challenge: string; redirectUri: string; scope: string }
  >();
  private readonly accessTokens = new Map<string, Grant & { expiresAt: number }>();
  private readonly refreshTokens = new Map<string, Grant>();
  private server: Server | undefined;
  url = '';

  constructor(options: FakeMicrosoftOptions = {}) {
    this.clientId = options.clientId ?? 'fake-client-id';
    this.clientSecret = options.clientSecret ?? 'fake-client-secret';
    this.redirectUris = options.redirectUris ?? [];
    this.tenant = options.tenant ?? 'common';
    this.accessSeconds = options.accessSeconds ?? 3600;
  }

  get loginUrl(): string {
    return this.url;
  }

  get graphUrl(): string {
    return `${this.url}/v1.0`;
  }

  /** The environment that points the server at this fake. */
  env(): Record<string, string> {
    return {
      MICROSOFT_CLIENT_ID: this.clientId,
      MICROSOFT_CLIENT_SECRET: this.clientSecret,
      MICROSOFT_LOGIN_URL: this.loginUrl,
      MICROSOFT_GRAPH_URL: this.graphUrl,
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    };
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Fills the signed-in account's mailbox with `count` demo contacts (`Demo1 Contact`, demo1@example.com, …). */
  seedDemoMailbox(count = 25): void {
    for (let i = 1; i <= count; i++) {
      this.putContact(this.account.id, {
        id: `demo-${i}`,
        givenName: `Demo${i}`,
        surname: 'Contact',
        emailAddresses: [{ address: `demo${i}@example.com` }],
        mobilePhone: `+1214555${String(1000 + i)}`,
      });
    }
  }

  throttleNext(count: number, status: 429 | 503 = 429, retryAfter = '2'): void {
    this.throttle = { count, status, retryAfter };
  }

  garbageNext(count: number): void {
    this.garbage = count;
  }

  /** Every refresh token of the account stops working (as when the user revokes the app's consent). */
  revokeGrants(accountId: string): void {
    for (const [token, grant] of this.refreshTokens)
      if (grant.account.id === accountId) this.refreshTokens.delete(token);
    for (const [token, grant] of this.accessTokens) if (grant.account.id === accountId) this.accessTokens.delete(token);
  }

  /** Expires every access token, so the next Graph call needs a refresh. */
  expireAccessTokens(): void {
    for (const grant of this.accessTokens.values()) grant.expiresAt = 0;
  }

  /** A token pair for the account without the browser flow (benchmarks seed credentials with it). */
  issueTokens(
    account: FakeAccount,
    scope = 'https://graph.microsoft.com/Contacts.Read',
  ): { accessToken: string; refreshToken: string; expiresIn: number } {
    const accessToken = `at-${randomBytes(16).toString('hex')}`;
    const refreshToken = `rt-${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(accessToken, { account, scope, expiresAt: Date.now() + this.accessSeconds * 1000 });
    this.refreshTokens.set(refreshToken, { account, scope });
    return { accessToken, refreshToken, expiresIn: this.accessSeconds };
  }

  liveRefreshTokens(accountId: string): string[] {
    return [...this.refreshTokens].filter(([, g]) => g.account.id === accountId).map(([t]) => t);
  }

  putContact(accountId: string, contact: FakeContact): void {
    const box = this.mailboxes.get(accountId) ?? new Map<string, FakeContact>();
    this.mailboxes.set(accountId, box);
    box.set(contact.id, contact);
    this.touch(this.changedAt, accountId, contact.id);
    this.removed.get(accountId)?.delete(contact.id);
  }

  removeContact(accountId: string, id: string): void {
    this.mailboxes.get(accountId)?.delete(id);
    this.changedAt.get(accountId)?.delete(id);
    this.touch(this.removed, accountId, id);
  }

  private touch(map: Map<string, Map<string, number>>, accountId: string, id: string): void {
    const inner = map.get(accountId) ?? new Map<string, number>();
    map.set(accountId, inner);
    inner.set(id, ++this.version);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = req.method === 'POST' ? await readBody(req) : '';
    const record: FakeRequest = { method: req.method ?? 'GET', path: url.pathname + url.search };
    if (req.headers.authorization) record.authorization = req.headers.authorization;
    if (req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      record.form = new URLSearchParams(body);
    this.requests.push(record);
    const base = `/${this.tenant}/oauth2/v2.0`;
    if (req.method === 'GET' && url.pathname === `${base}/authorize`) return this.authorize(url, res);
    if (req.method === 'POST' && url.pathname === `${base}/token`) return this.token(new URLSearchParams(body), res);
    if (url.pathname.startsWith('/v1.0/')) return this.graph(req, url, body, res);
    json(res, 404, { error: { code: 'NotFound', message: 'No such endpoint' } });
  }

  private authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== this.clientId || !this.redirectUris.includes(redirectUri)) {
      return text(res, 400, 'AADSTS50011: The redirect URI or client does not match the application registration.');
    }
    const back = new URL(redirectUri);
    if (q.get('state')) back.searchParams.set('state', q.get('state')!);
    if (this.declineNext) {
      this.declineNext = false;
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'AADSTS65004: User declined to consent to access the app.');
      return redirect(res, back.toString());
    }
    if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      back.searchParams.set('error', 'invalid_request');
      return redirect(res, back.toString());
    }
    const asked = (q.get('scope') ?? '').split(' ').filter(Boolean);
    const granted = this.grantOnly
      ? asked.filter((s) => !/\./.test(s) || s === 'User.Read' || this.grantOnly!.includes(s))
      : asked;
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      account: this.account,
      challenge: q.get('code_challenge')!,
      redirectUri,
      scope: granted.map((s) => (/\./.test(s) ? `https://graph.microsoft.com/${s}` : s)).join(' '),
    });
    back.searchParams.set('code', code);
    redirect(res, back.toString());
  }

  private token(form: URLSearchParams, res: ServerResponse): void {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return json(res, 401, {
        error: 'invalid_client',
        error_description: 'AADSTS7000215: Invalid client secret provided.',
      });
    }
    const invalidGrant = (description: string) =>
      json(res, 400, { error: 'invalid_grant', error_description: description });
    let grant: Grant;
    if (form.get('grant_type') === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (!code)
        return invalidGrant(
          'AADSTS70008: The provided authorization code or refresh token has expired or was already used.',
        );
      if (code.redirectUri !== form.get('redirect_uri')) return invalidGrant('AADSTS70001: redirect_uri mismatch.');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
        return invalidGrant('AADSTS501481: The Code_Verifier does not match the code_challenge.');
      grant = { account: code.account, scope: code.scope };
    } else if (form.get('grant_type') === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      const found = this.refreshTokens.get(token);
      if (!found) return invalidGrant('AADSTS700082: The refresh token has expired or been revoked.');
      this.refreshTokens.delete(token); // rotation: the old one stops working
      grant = found;
    } else {
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    const access = `at-${randomBytes(16).toString('hex')}`;
    const refresh = `rt-${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(access, { ...grant, expiresAt: Date.now() + this.accessSeconds * 1000 });
    this.refreshTokens.set(refresh, grant);
    json(res, 200, {
      token_type: 'Bearer',
      scope: grant.scope,
      expires_in: this.accessSeconds,
      ext_expires_in: this.accessSeconds,
      access_token: access,
      refresh_token: refresh,
      id_token: 'unused.by.server',
    });
  }

  private graph(req: IncomingMessage, url: URL, _body: string, res: ServerResponse): void {
    if (this.throttle.count > 0) {
      this.throttle.count--;
      res.setHeader('retry-after', this.throttle.retryAfter);
      return json(res, this.throttle.status, { error: { code: 'TooManyRequests', message: 'Please retry after' } });
    }
    if (this.garbage > 0) {
      this.garbage--;
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json');
      return void res.end('<html>not json');
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const grant = this.accessTokens.get(token);
    if (!grant || grant.expiresAt <= Date.now())
      return json(res, 401, {
        error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' },
      });
    const path = url.pathname.slice('/v1.0'.length);
    const account = grant.account;
    if (req.method === 'GET' && path === '/me') {
      return json(res, 200, {
        id: account.id,
        displayName: account.displayName,
        givenName: account.givenName ?? null,
        surname: account.surname ?? null,
        mail: account.mail,
        userPrincipalName: account.mail,
      });
    }
    if (req.method === 'GET' && path === '/me/photo/$value') {
      if (!account.photo)
        return json(res, 404, { error: { code: 'ImageNotFound', message: 'The photo wasn’t found.' } });
      res.statusCode = 200;
      res.setHeader('content-type', 'image/jpeg');
      return void res.end(account.photo);
    }
    if (req.method === 'POST' && path === '/me/sendMail') {
      const parsed = JSON.parse(_body || '{}') as { message?: Record<string, unknown>; saveToSentItems?: unknown };
      if (!parsed.message || !Array.isArray(parsed.message.toRecipients))
        return json(res, 400, {
          error: { code: 'ErrorInvalidRecipients', message: 'At least one recipient is not valid.' },
        });
      this.sent.push({ from: account.mail, message: parsed.message, saveToSentItems: parsed.saveToSentItems });
      res.statusCode = 202;
      return void res.end();
    }
    if (req.method === 'GET' && path === '/me/contacts/delta') return this.contactsDelta(req, url, account, res);
    if (req.method === 'GET' && path === '/me/mailFolders/delta') {
      const folders = [
        { id: 'inbox', displayName: 'Inbox' },
        { id: 'sent', displayName: 'Sent Items' },
      ];
      return json(res, 200, {
        value: url.searchParams.has('$deltatoken') ? [] : folders,
        '@odata.deltaLink': `${this.graphUrl}/me/mailFolders/delta?$deltatoken=f${this.version}`,
      });
    }
    json(res, 404, { error: { code: 'ResourceNotFound', message: `No ${path}` } });
  }

  /**
   * Graph's delta protocol: the first round (no token) lists every contact; each page but the last carries
   * `@odata.nextLink` (`$skiptoken`), the last `@odata.deltaLink` (`$deltatoken` = the version it saw). A round
   * from a deltaLink lists what changed since, removals as `{id, "@removed": {reason: "deleted"}}`.
   */
  private contactsDelta(req: IncomingMessage, url: URL, account: FakeAccount, res: ServerResponse): void {
    const since = Number(url.searchParams.get('$deltatoken') ?? url.searchParams.get('since') ?? '0');
    const skip = Number(url.searchParams.get('$skiptoken') ?? '0');
    const upTo = Number(url.searchParams.get('upto') ?? String(this.version));
    const changed = [...(this.changedAt.get(account.id) ?? new Map<string, number>())]
      .filter(([, v]) => v > since && v <= upTo)
      .map(([id]) => this.mailboxes.get(account.id)!.get(id)!);
    const gone =
      since === 0
        ? []
        : [...(this.removed.get(account.id) ?? new Map<string, number>())]
            .filter(([, v]) => v > since && v <= upTo)
            .map(([id]) => ({ id, '@removed': { reason: 'deleted' } }));
    const all: unknown[] = [...changed, ...gone];
    const size = Math.min(
      this.pageSize,
      Number(/odata\.maxpagesize=(\d+)/.exec(String(req.headers.prefer ?? ''))?.[1] ?? this.pageSize),
    );
    const page = all.slice(skip, skip + size);
    const next = skip + size < all.length;
    const link = next
      ? {
          '@odata.nextLink': `${this.graphUrl}/me/contacts/delta?since=${since}&upto=${upTo}&$skiptoken=${skip + size}`,
        }
      : { '@odata.deltaLink': `${this.graphUrl}/me/contacts/delta?$deltatoken=${upTo}` };
    json(res, 200, { '@odata.context': `${this.graphUrl}/$metadata#Collection(contact)`, value: page, ...link });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 302;
  res.setHeader('location', location);
  res.end();
}
