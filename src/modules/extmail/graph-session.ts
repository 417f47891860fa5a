// The tokens of one credential during a sync: the access token is refreshed when it is about to expire or the
// provider refuses it, and every refresh is stored at once (Microsoft rotates refresh tokens: the old one may
// stop working as soon as the new one is issued, so losing the new one would lose the link).
import type { Deps } from '../../platform/deps.js';
import { findSealedRefreshToken, storeRefreshedTokens, type CredentialRow } from './extmail.repository.js';
import { ProviderError, type ExtmailProvider } from './provider.js';

/** Refresh this long before the access token expires. */
const EARLY_SECONDS = 120;

export class GraphSession {
  private accessToken: string | null;
  private expiresAt: Date | null;
  private refreshed = false;

  constructor(
    private readonly deps: Deps,
    private readonly provider: ExtmailProvider,
    private readonly credential: CredentialRow,
  ) {
    this.accessToken = credential.access_token_sealed ? deps.secrets.decrypt(credential.access_token_sealed) : null;
    this.expiresAt = credential.access_expires_at;
  }

  /** Runs `call` with a fresh access token; a refused token is refreshed once and the call repeated. */
  async run<T>(call: (accessToken: string) => Promise<T>): Promise<T> {
    const now = this.deps.clock.now();
    if (!this.accessToken || !this.expiresAt || this.expiresAt.getTime() - EARLY_SECONDS * 1000 <= now.getTime())
      await this.refresh();
    try {
      return await call(this.accessToken!);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== 'unauthorized' || this.refreshed) throw error;
      await this.refresh();
      return call(this.accessToken!);
    }
  }

  private async refresh(): Promise<void> {
    const { id } = this.credential;
    const current = await findSealedRefreshToken(this.deps.db, id);
    if (!current?.refresh_token_sealed) throw new ProviderError('invalid_grant', 'No refresh token is stored');
    const tokens = await this.provider.refresh(this.deps.secrets.decrypt(current.refresh_token_sealed));
    const now = this.deps.clock.now();
    this.accessToken = tokens.accessToken;
    this.expiresAt = new Date(now.getTime() + tokens.expiresInSeconds * 1000);
    this.refreshed = true;
    await storeRefreshedTokens(
      this.deps.db,
      id,
      {
        access_token_sealed: this.deps.secrets.encrypt(tokens.accessToken),
        ...(tokens.refreshToken ? { refresh_token_sealed: this.deps.secrets.encrypt(tokens.refreshToken) } : {}),
        access_expires_at: this.expiresAt,
      },
      now,
    );
  }
}
