// Web sessions of the authorization pages: a random id in an HttpOnly, SameSite=Lax cookie (Secure behind
// TLS), only its SHA-256 hash in web_sessions. The session id changes at sign-in (no fixation) and every
// form carries the session's CSRF secret, checked on every POST.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { addSeconds } from '../lib/clock.js';
import { hashToken, randomToken, safeEqual } from '../lib/crypto.js';
import { parsePending, type PendingAuthorization } from './authorization-request.js';
import {
  deleteExpiredSessions,
  findLiveSession,
  insertSession,
  updateSession,
  type SessionChanges,
  type WebSessionRow,
} from '../modules/auth/index.js';

/** A sign-in on this browser lasts a working day; every authorization still asks for approval. */
export const SESSION_SECONDS = 12 * 3600;

export interface WebSession {
  readonly id: string;
  /** SHA-256 of the cookie this request came with: updates apply only while it is still the session's. */
  hash: Buffer;
  user: string | null;
  mfaPassed: boolean;
  csrf: string;
  pending: PendingAuthorization | null;
  /** When `user` signed in with their password on this session (OpenID Connect's auth_time). */
  signedInAt: Date | null;
}

function toSession(row: WebSessionRow, hash: Buffer): WebSession {
  return {
    id: row.id,
    hash,
    user: row.user,
    mfaPassed: row.mfa_passed,
    csrf: row.csrf_secret,
    pending: parsePending(row.pending),
    signedInAt: row.signed_in_at,
  };
}

/** A concurrent request (another tab) signed in or out on this session after this request loaded it. */
export class SessionChangedError extends Error {
  constructor() {
    super('The web session changed during the request');
  }
}

export class SessionStore {
  private readonly secure: boolean;
  readonly cookieName: string;

  constructor(private readonly deps: Deps) {
    const { baseUrl, webUrl } = deps.config;
    this.secure = webUrl.startsWith('https:') || baseUrl.startsWith('https:');
    // The __Host- prefix makes browsers refuse the cookie unless it is Secure, host-only and Path=/.
    this.cookieName = this.secure ? '__Host-gable_session' : 'gable_session';
  }

  async load(request: FastifyRequest): Promise<WebSession | null> {
    const value = request.cookies[this.cookieName];
    if (!value || value.length > 200) return null;
    const hash = hashToken(value);
    const row = await findLiveSession(this.deps.db, hash, this.deps.clock.now());
    return row ? toSession(row, hash) : null;
  }

  /** A new anonymous session, its cookie set on the reply. */
  async create(reply: FastifyReply): Promise<WebSession> {
    const now = this.deps.clock.now();
    // Opportunistic clean-up of ended sessions (indexed on expires_at), so no job is needed for it.
    await deleteExpiredSessions(this.deps.db, now);
    const value = randomToken();
    const hash = hashToken(value);
    const row = await insertSession(this.deps.db, hash, randomToken(), addSeconds(now, SESSION_SECONDS));
    this.setCookie(reply, value);
    return toSession(row, hash);
  }

  async loadOrCreate(request: FastifyRequest, reply: FastifyReply): Promise<WebSession> {
    return (await this.load(request)) ?? this.create(reply);
  }

  /** Signs a user in (or out, with null): new session id and CSRF secret, so a planted cookie or token is worthless. */
  async switchUser(session: WebSession, reply: FastifyReply, user: string | null, mfaPassed: boolean): Promise<void> {
    const value = randomToken();
    const hash = hashToken(value);
    const csrf = randomToken();
    const signedInAt = user === null ? null : this.deps.clock.now();
    await this.update(session, {
      session_hash: hash,
      user,
      mfa_passed: mfaPassed,
      csrf_secret: csrf,
      signed_in_at: signedInAt,
    });
    Object.assign(session, { hash, user, mfaPassed, csrf, signedInAt });
    this.setCookie(reply, value);
  }

  /** Only for the user whose code was checked: a sign-in meanwhile rotated the hash, and this then throws. */
  async markMfaPassed(session: WebSession): Promise<void> {
    await this.update(session, { mfa_passed: true });
    session.mfaPassed = true;
  }

  async savePending(session: WebSession, pending: PendingAuthorization | null): Promise<void> {
    await this.update(session, { pending: pending ? JSON.stringify(pending) : null });
    session.pending = pending;
  }

  private async update(session: WebSession, changes: SessionChanges): Promise<void> {
    if (!(await updateSession(this.deps.db, session.id, session.hash, changes, this.deps.clock.now())))
      throw new SessionChangedError();
  }

  /** The CSRF check of every POST: the form's token must be this session's secret. */
  csrfMatches(session: WebSession, token: string | undefined): boolean {
    return typeof token === 'string' && safeEqual(token, session.csrf);
  }

  private setCookie(reply: FastifyReply, value: string): void {
    reply.setCookie(this.cookieName, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      maxAge: SESSION_SECONDS,
    });
  }
}
