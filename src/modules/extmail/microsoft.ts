// The Microsoft identity platform (v2.0 endpoints, authorization code + PKCE, refresh) and Microsoft Graph,
// spoken directly through the one outbound client (docs/adr/0020-extmail-protocol-without-msal.md). Base URLs
// come from config, so tests point them at a loopback fake (test/fakes/microsoft.ts).
import type { Config } from '../../config.js';
import { OutboundError, type OutboundHttp, type OutboundResponse } from '../../lib/outbound.js';
import { BASE_SCOPES, grantedScopes } from './scopes.js';
import {
  ProviderError,
  type AuthorizeRequest,
  type DeltaPage,
  type ExtmailProvider,
  type MailboxMessage,
  type ProviderTokens,
  type RemoteProfile,
} from './provider.js';

const TIMEOUT_MS = 20_000;
/** Larger photos are not kept (the profile keeps working without one). */
export const MAX_PHOTO_BYTES = 256 * 1024;
const MAX_JSON_BYTES = 8 * 1024 * 1024;
/** The contact fields the import maps (contact-mapping.ts); the rest is not fetched. */
const CONTACT_FIELDS =
  'givenName,middleName,surname,nickName,title,companyName,jobTitle,birthday,emailAddresses,mobilePhone,homePhones,businessPhones,homeAddress,businessAddress,otherAddress';
const PAGE_SIZE = 500;

type Json = Record<string, unknown>;

export class MicrosoftProvider implements ExtmailProvider {
  readonly name = 'microsoft';

  constructor(
    private readonly config: Config,
    private readonly http: OutboundHttp,
  ) {}

  missingSetting(): string | null {
    if (!this.config.microsoftClientId) return 'MICROSOFT_CLIENT_ID';
    if (!this.config.microsoftClientSecret) return 'MICROSOFT_CLIENT_SECRET';
    return null;
  }

  private endpoint(kind: 'authorize' | 'token'): string {
    return `${this.config.microsoftLoginUrl}/${encodeURIComponent(this.config.microsoftTenant)}/oauth2/v2.0/${kind}`;
  }

  authorizeUrl(request: AuthorizeRequest): string {
    const url = new URL(this.endpoint('authorize'));
    url.search = new URLSearchParams({
      client_id: this.config.microsoftClientId ?? '',
      response_type: 'code',
      redirect_uri: request.redirectUri,
      response_mode: 'query',
      scope: [...BASE_SCOPES, ...request.scopes].join(' '),
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      prompt: 'select_account',
    }).toString();
    return url.toString();
  }

  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<ProviderTokens> {
    return this.token({
      grant_type: 'authorization_code',
      code: input.code,
      code_verifier: input.codeVerifier,
      redirect_uri: input.redirectUri,
    });
  }

  refresh(refreshToken: string): Promise<ProviderTokens> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** The identity platform has no RFC 7009 endpoint for one refresh token (only revoking every session). */
  async revoke(): Promise<boolean> {
    return false;
  }

  async profile(accessToken: string): Promise<RemoteProfile> {
    const me = await this.graphJson(
      'GET',
      '/me?$select=id,displayName,givenName,surname,mail,userPrincipalName',
      accessToken,
    );
    const id = text(me.id);
    const email = text(me.mail) ?? text(me.userPrincipalName);
    if (!id || !email) throw new ProviderError('bad_response', 'Graph /me has no id or address');
    const firstName = text(me.givenName);
    const lastName = text(me.surname);
    return {
      id,
      email,
      resourceName: `users/${id}`,
      displayName: text(me.displayName) ?? ([firstName, lastName].filter(Boolean).join(' ') || email),
      firstName,
      lastName,
      photo: await this.photo(accessToken),
    };
  }

  contactsDelta(accessToken: string, link: string | null): Promise<DeltaPage> {
    return this.delta(accessToken, link ?? `/me/contacts/delta?$select=${CONTACT_FIELDS}`);
  }

  mailFoldersDelta(accessToken: string, link: string | null): Promise<DeltaPage> {
    return this.delta(accessToken, link ?? '/me/mailFolders/delta?$select=displayName');
  }

  /**
   * `POST /me/sendMail` (202, no body). Graph carries only custom headers whose names start with `x-` (at most 5),
   * so List-Unsubscribe and the like are not set on mail sent through a mailbox (docs/extmail.md).
   */
  async sendMail(accessToken: string, message: MailboxMessage): Promise<void> {
    const recipients = (list: string[]) => list.map((address) => ({ emailAddress: { address } }));
    const headers = Object.entries(message.headers)
      .filter(([name]) => /^x-/i.test(name))
      .slice(0, 5)
      .map(([name, value]) => ({ name, value }));
    await this.graphJson('POST', '/me/sendMail', accessToken, {
      message: {
        subject: message.subject,
        body:
          message.html !== null
            ? { contentType: 'HTML', content: message.html }
            : { contentType: 'Text', content: message.text ?? '' },
        toRecipients: recipients(message.to),
        ccRecipients: recipients(message.cc),
        bccRecipients: recipients(message.bcc),
        ...(headers.length > 0 ? { internetMessageHeaders: headers } : {}),
      },
      saveToSentItems: true,
    });
  }

  /** Graph's delta protocol: `value` entries (removals carry `@removed`), then `@odata.nextLink` or `@odata.deltaLink`. */
  private async delta(accessToken: string, link: string): Promise<DeltaPage> {
    const body = await this.graphJson('GET', link, accessToken, undefined, {
      prefer: `odata.maxpagesize=${PAGE_SIZE}`,
    });
    if (!Array.isArray(body.value)) throw new ProviderError('bad_response', 'A delta page without a value list');
    const changed: Record<string, unknown>[] = [];
    const removed: string[] = [];
    for (const entry of body.value as unknown[]) {
      if (!entry || typeof entry !== 'object' || typeof (entry as { id?: unknown }).id !== 'string') continue;
      const item = entry as Record<string, unknown> & { id: string };
      if (item['@removed']) removed.push(item.id);
      else changed.push(item);
    }
    const nextLink = text(body['@odata.nextLink']);
    const deltaLink = text(body['@odata.deltaLink']);
    if (!nextLink && !deltaLink)
      throw new ProviderError('bad_response', 'A delta page with neither a next nor a delta link');
    return { changed, removed, nextLink, deltaLink: nextLink ? null : deltaLink };
  }

  /** `/me/photo/$value`: absent (404) or unusable → null; never fails the link. */
  private async photo(accessToken: string): Promise<string | null> {
    let response: OutboundResponse;
    try {
      response = await this.send('GET', '/me/photo/$value', accessToken, undefined, MAX_PHOTO_BYTES);
    } catch {
      return null;
    }
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (response.status !== 200 || !/^image\/(jpeg|png|gif|webp)$/.test(type) || response.body.length === 0)
      return null;
    return `data:${type};base64,${response.body.toString('base64')}`;
  }

  /** A Graph call answering JSON (`path` relative to MICROSOFT_GRAPH_URL, or an absolute nextLink/deltaLink). */
  async graphJson(
    method: string,
    path: string,
    accessToken: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Json> {
    const response = await this.send(method, path, accessToken, body, MAX_JSON_BYTES, headers);
    checkGraphStatus(response);
    if (response.status === 202 || response.status === 204) return {};
    return parseJson(response);
  }

  private async send(
    method: string,
    path: string,
    accessToken: string,
    body: unknown,
    maxBytes: number,
    extra: Record<string, string> = {},
  ): Promise<OutboundResponse> {
    const url = /^https?:\/\//.test(path) ? path : `${this.config.microsoftGraphUrl}${path}`;
    if (!url.startsWith(`${this.config.microsoftGraphUrl}/`))
      throw new ProviderError('bad_response', 'Graph sent a link outside its own address');
    return this.call({
      method,
      url,
      headers: {
        ...extra,
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      maxResponseBytes: maxBytes,
    });
  }

  private async token(fields: Record<string, string>): Promise<ProviderTokens> {
    const response = await this.call({
      method: 'POST',
      url: this.endpoint('token'),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: this.config.microsoftClientId ?? '',
        client_secret: this.config.microsoftClientSecret ?? '',
        ...fields,
      }).toString(),
      maxResponseBytes: 64 * 1024,
    });
    if (response.status === 400 || response.status === 401) {
      const error = safeJson(response)?.error;
      // invalid_grant: the code or refresh token is expired, used or revoked (the user must link again).
      if (error === 'invalid_grant') throw new ProviderError('invalid_grant', 'The provider refused the grant');
      throw new ProviderError(
        'unauthorized',
        `The token endpoint answered ${response.status} ${typeof error === 'string' ? error : ''}`.trim(),
      );
    }
    checkGraphStatus(response);
    const body = parseJson(response);
    const accessToken = text(body.access_token);
    if (!accessToken) throw new ProviderError('bad_response', 'The token endpoint sent no access_token');
    const expires = Number(body.expires_in);
    return {
      accessToken,
      refreshToken: text(body.refresh_token),
      expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : 3600,
      scope: typeof body.scope === 'string' ? grantedScopes(body.scope) : null,
    };
  }

  private async call(request: Parameters<OutboundHttp['request']>[0]): Promise<OutboundResponse> {
    try {
      return await this.http.request({ ...request, timeoutMs: TIMEOUT_MS, purpose: 'extmail' });
    } catch (error) {
      if (error instanceof OutboundError) throw new ProviderError('unavailable', `${error.kind}: ${error.message}`);
      throw error;
    }
  }
}

function checkGraphStatus(response: OutboundResponse): void {
  if (response.status >= 200 && response.status < 300) return;
  if (response.status === 429 || response.status === 503) {
    throw new ProviderError(
      'throttled',
      `The provider answered ${response.status}`,
      retryAfter(response.headers['retry-after']),
    );
  }
  if (response.status === 401) throw new ProviderError('unauthorized', 'The provider refused the access token');
  throw new ProviderError(
    response.status >= 500 ? 'unavailable' : 'bad_response',
    `The provider answered ${response.status}`,
  );
}

/** Retry-After in seconds (delta or HTTP date), at least 1, at most an hour; 30 when missing or unreadable. */
export function retryAfter(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return 30;
  const seconds = /^\d+$/.test(value.trim())
    ? Number(value.trim())
    : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  if (!Number.isFinite(seconds)) return 30;
  return Math.min(3600, Math.max(1, seconds));
}

function parseJson(response: OutboundResponse): Json {
  const parsed = safeJson(response);
  if (!parsed) throw new ProviderError('bad_response', 'The provider answered something other than a JSON object');
  return parsed;
}

function safeJson(response: OutboundResponse): Json | null {
  try {
    const value: unknown = JSON.parse(response.body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
