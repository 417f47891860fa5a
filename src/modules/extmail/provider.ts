// A mail provider a mailbox can be linked at. Microsoft (identity platform + Graph) is the one there is; a Google
// provider implements the same interface (docs/extmail.md).
import type { WireMessage } from '../../mail/transport.js';

export interface ProviderTokens {
  accessToken: string;
  /** Null when the provider sent none (the previous one stays). */
  refreshToken: string | null;
  expiresInSeconds: number;
  /** Spec scope names (scopes.ts), or null when the provider did not say. */
  scope: string[] | null;
}

export interface RemoteProfile {
  id: string;
  email: string;
  resourceName: string;
  displayName: string;
  firstName: string | null;
  lastName: string | null;
  /** A `data:` URL of the account photo, or null. */
  photo: string | null;
}

export interface AuthorizeRequest {
  state: string;
  codeChallenge: string;
  redirectUri: string;
  scopes: readonly string[];
}

export interface ExtmailProvider {
  readonly name: string;
  /** The setting that is missing for this provider to work, or null when it is configured. */
  missingSetting(): string | null;
  authorizeUrl(request: AuthorizeRequest): string;
  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<ProviderTokens>;
  refresh(refreshToken: string): Promise<ProviderTokens>;
  profile(accessToken: string): Promise<RemoteProfile>;
  /** Revokes a refresh token where the provider can; false when it cannot. */
  revoke(refreshToken: string): Promise<boolean>;
  /** One page of the contacts delta: from the start (`link` null), a page link, or the last round's delta link. */
  contactsDelta(accessToken: string, link: string | null): Promise<DeltaPage>;
  /** One page of the mail-folder delta (only its links are kept: `cfolders_sync_token`). */
  mailFoldersDelta(accessToken: string, link: string | null): Promise<DeltaPage>;
  /** Sends a message from the account's own address (and keeps it in its Sent Items). */
  sendMail(accessToken: string, message: MailboxMessage): Promise<void>;
}

/** The mail platform's message, less what the provider sets itself (sender, Message-ID). Custom headers: a
 * provider may carry only some (Graph: names starting with `x-`). */
export type MailboxMessage = Pick<WireMessage, 'to' | 'cc' | 'bcc' | 'subject' | 'html' | 'text' | 'headers'>;

export interface DeltaPage {
  /** Entries created or changed since the last round (provider JSON, each with a string `id`). */
  changed: Record<string, unknown>[];
  /** Ids of entries removed since the last round. */
  removed: string[];
  /** More pages of this round follow here… */
  nextLink: string | null;
  /** …or this was the last page, and the next round starts here. */
  deltaLink: string | null;
}

export type ProviderFailure = 'invalid_grant' | 'unauthorized' | 'throttled' | 'unavailable' | 'bad_response';

/** What went wrong at the provider; never shown raw to API clients. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailure,
    message: string,
    /** For `throttled`: the provider's Retry-After. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
