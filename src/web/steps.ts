// Which page the authorization request is at, from the session: sign in → MFA → brand → consent. Each POST
// changes the session and redirects here (POST/redirect/GET), so reloads and back buttons stay harmless.
import type { FastifyReply } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { HostBrand } from '../modules/brands/index.js';
import { findLiveClientById, grantScope } from '../modules/auth/index.js';
import { scopeWords } from '../platform/api-scopes.js';
import { findPageUser } from '../modules/users/index.js';
import type { PendingAuthorization } from './authorization-request.js';
import { brandChoices } from './brand-choices.js';
import { consentPage, pickerPage, type BrandChoice } from './brand-pages.js';
import type { PageBrand } from '../platform/pages/html.js';
import { messagePage, mfaPage, signInPage, type FormContext } from '../platform/pages/pages.js';
import type { SessionStore, WebSession } from './session.js';

/** An authorization request left this long is dropped: the partner should start a fresh one. */
export const PENDING_SECONDS = 30 * 60;

export interface StepContext {
  deps: Deps;
  store: SessionStore;
  session: WebSession;
  pageBrand: PageBrand;
  whiteLabel: HostBrand | undefined;
}

export interface StepOptions {
  status?: number;
  error?: string;
  email?: string;
}

export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(page);
}

export function noRequestPage(pageBrand: PageBrand): string {
  return messagePage({
    brand: pageBrand,
    title: 'No authorization in progress',
    message: 'This sign-in has expired or was already completed.',
    detail: 'Go back to the application that sent you here and start again.',
  });
}

export async function loadPageUser(deps: Deps, userId: string) {
  return findPageUser(deps.db, userId);
}

export async function loadLiveClient(deps: Deps, clientId: string) {
  return findLiveClientById(deps.db, clientId);
}

/** The pending request's client while it is live and still has the request's redirect URI registered. */
export async function registeredClient(deps: Deps, pending: Pick<PendingAuthorization, 'client' | 'redirectUri'>) {
  const client = await loadLiveClient(deps, pending.client);
  return client && client.redirect_uris.includes(pending.redirectUri) ? client : null;
}

/**
 * The scope an approval grants (decisions §22), from the request's scope as sent and the client's allowed scopes
 * as they are now; null when the client may no longer ask for it (an operator narrowed it meanwhile).
 */
export function grantedScope(
  client: { allowed_scopes: string[] | null },
  pending: Pick<PendingAuthorization, 'scope'>,
): string | null {
  const decision = grantScope(client.allowed_scopes, pending.scope);
  return 'granted' in decision ? decision.granted : null;
}

export function pendingIsCurrent(ctx: StepContext): boolean {
  const pending = ctx.session.pending;
  return pending !== null && ctx.deps.clock.now().getTime() - pending.startedAt < PENDING_SECONDS * 1000;
}

/** Renders the page the request is at (with an error message when a form was refused). */
export async function renderStep(
  ctx: StepContext,
  reply: FastifyReply,
  options: StepOptions = {},
): Promise<FastifyReply> {
  const { deps, session, store } = ctx;
  const pending = session.pending;
  if (!pending || !pendingIsCurrent(ctx)) return sendPage(reply, 400, noRequestPage(ctx.pageBrand));
  const client = await registeredClient(deps, pending);
  if (!client) return sendPage(reply, 400, noRequestPage(ctx.pageBrand));
  const form: FormContext = {
    brand: ctx.pageBrand,
    csrf: session.csrf,
    requestId: pending.id,
    clientName: client.name,
  };
  const status = options.status ?? 200;

  const user = session.user ? await loadPageUser(deps, session.user) : undefined;
  if (!user) {
    if (session.user) await store.switchUser(session, reply, null, false); // the account was deleted meanwhile
    return sendPage(
      reply,
      status,
      signInPage({
        ...form,
        csrf: session.csrf,
        ...((options.email ?? pending.loginHint) ? { email: options.email ?? pending.loginHint! } : {}),
        ...(options.error ? { error: options.error } : {}),
      }),
    );
  }
  if (user.mfa_enabled && !session.mfaPassed) {
    return sendPage(
      reply,
      status,
      mfaPage({ ...form, email: user.email, ...(options.error ? { error: options.error } : {}) }),
    );
  }

  const choices = await brandChoices(deps.db, user.id, ctx.whiteLabel?.id ?? null);
  let chosen: BrandChoice | undefined = choices.find((c) => c.id === pending.brand);
  if (!chosen && pending.brand === null && pending.requestedBrand) {
    // spec §5.3: a requested brand the user has skips the picker; one they lack is ignored without a word.
    chosen = choices.find((c) => c.id === pending.requestedBrand);
    if (chosen) await store.savePending(session, { ...pending, brand: chosen.id });
  }
  if (!chosen) {
    return sendPage(
      reply,
      status,
      pickerPage({
        ...form,
        email: user.email,
        choices,
        selected: null,
        ...(options.error ? { error: options.error } : {}),
      }),
    );
  }
  return sendPage(
    reply,
    status,
    consentPage({
      ...form,
      email: user.email,
      userName: `${user.first_name} ${user.last_name}`.trim() || user.email,
      appName: deps.config.appName,
      chosen,
      // The consent words know two durations, a refresh family (code) or an access token alone (the implicit types
      // with one); id_token alone grants no API access, so its page speaks only of identity (its requested scopes:
      // the `full` that grantedScope would add by default is never granted, approve.ts issues no access token).
      responseType: consentKind(pending.responseType),
      canChangeBrand: choices.length > 1,
      scopes: [
        ...scopeWords(pending.responseType === 'id_token' ? pending.scope : (grantedScope(client, pending) ?? '')),
      ],
    }),
  );
}

function consentKind(responseType: PendingAuthorization['responseType']): 'code' | 'token' | 'id_token' {
  if (responseType === 'code' || responseType === 'id_token') return responseType;
  return 'token';
}
