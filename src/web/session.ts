// Web sessions of the authorization pages: a random id in an HttpOnly, SameSite=Lax cookie (Secure behind
// TLS), only its SHA-256 hash in web_sessions. The session id changes at sign-in (no fixation) and every
// form carries the session's CSRF secret, checked on every POST.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { addSeconds } from '../lib/clock.js';
import { hashToken, randomToken, safeEqual } from '../lib/crypto.js';
import { parsePending, type PendingAuthorization } from './authorization-request.js';
import { deleteExpiredSessions, findLiveSession, insertSession, updateSession, type WebSessionRow } from './sessions.repository.js';

/** A sign-in on this browser lasts a working day; every authorization still asks for approval. */
export const SESSION_SECONDS = 12 * 3600;

export interface WebSession {
  readonly id: string;
  user: string | null;
  mfaPassed: boolean;
  csrf: string;
  pending: PendingAuthorization | null;
}

function toSession(row: WebSessionRow): WebSession {
  return { id: row.id, user: row.user, mfaPassed: row.mfa_passed, csrf: row.csrf_secret, pending: parsePending(row.pending) };
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
    const row = await findLiveSession(this.deps.db, hashToken(value), this.deps.clock.now());
    return row ? toSession(row) : null;
  }

  /** A new anonymous session, its cookie set on the reply. */
  async create(reply: FastifyReply): Promise<WebSession> {
    const now = this.deps.clock.now();
    // Opportunistic clean-up of ended sessions (indexed on expires_at), so no job is needed for it.
    await deleteExpiredSessions(this.deps.db, now);
    const value = randomToken();
    const row = await insertSession(this.deps.db, hashToken(value), randomToken(), addSeconds(now, SESSION_SECONDS));
    this.setCookie(reply, value);
    return toSession(row);
  }

  async loadOrCreate(request: FastifyRequest, reply: FastifyReply): Promise<WebSession> {
    return (await this.load(request)) ?? this.create(reply);
  }

  /** Signs a user in (or out, with null): new session id and CSRF secret, so a planted cookie or token is worthless. */
  async switchUser(session: WebSession, reply: FastifyReply, user: string | null, mfaPassed: boolean): Promise<void> {
    const value = randomToken();
    session.user = user;
    session.mfaPassed = mfaPassed;
    session.csrf = randomToken();
    await updateSession(this.deps.db, session.id, { session_hash: hashToken(value), user, mfa_passed: mfaPassed, csrf_secret: session.csrf }, this.deps.clock.now());
    this.setCookie(reply, value);
  }

  async markMfaPassed(session: WebSession): Promise<void> {
    session.mfaPassed = true;
    await updateSession(this.deps.db, session.id, { mfa_passed: true }, this.deps.clock.now());
  }

  async savePending(session: WebSession, pending: PendingAuthorization | null): Promise<void> {
    session.pending = pending;
    await updateSession(this.deps.db, session.id, { pending: pending ? JSON.stringify(pending) : null }, this.deps.clock.now());
  }

  /** The CSRF check of every POST: the form's token must be this session's secret. */
  csrfMatches(session: WebSession, token: string | undefined): boolean {
    return typeof token === 'string' && safeEqual(token, session.csrf);
  }

  private setCookie(reply: FastifyReply, value: string): void {
    reply.setCookie(this.cookieName, value, { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/', maxAge: SESSION_SECONDS });
  }
}
