// The partner authorization pages (spec §4.1, §5 steps 3–4): GET /oauth2/auth, then sign-in, MFA, brand
// picker and consent, ending in a 302 to the partner's redirect_uri. HTML, not the JSON API.
import cookie from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { FeatureRoutes } from '../platform/feature.js';
import { FORM_OR_JSON_BODY } from '../platform/body-types.js';
import { whiteLabelBrand } from '../modules/brands/index.js';
import { PROMPT_VALUES } from '../modules/auth/index.js';
import { randomToken } from '../lib/crypto.js';
import { authorizationRedirect, parseAuthorizationRequest, RESPONSE_TYPES } from './authorization-request.js';
import { approve } from './approve.js';
import { interactionOutcome } from './prompt.js';
import { brandChoices } from './brand-choices.js';
import type { PageBrand } from '../platform/pages/html.js';
import { checkTotp } from './mfa-check.js';
import { hasRecoveryCodeForm } from '../modules/mfa/index.js';
import { describeWait, messagePage, PATHS, signOutPage } from '../platform/pages/pages.js';
import { SessionChangedError, SessionStore, type WebSession } from './session.js';
import { toAppError } from '../platform/error-handler.js';
import { signInWithPassword } from './sign-in.service.js';
import {
  loadPageUser,
  noRequestPage,
  pendingIsCurrent,
  registeredClient,
  renderStep,
  sendPage,
  type StepContext,
} from './steps.js';
import { parseLogoutRequest } from './end-session.js';
import { PAGE_STYLE_HASH } from '../platform/pages/styles.js';

/** HTML forms post form-encoded bodies; JSON is taken as before this check existed (platform/body-types.ts). */
const PAGE = { config: { auth: 'none' as const }, schema: { hide: true, consumes: FORM_OR_JSON_BODY } };

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
  // No script at all, only our hashed stylesheet; never framed (a framed consent page could be clickjacked).
  'content-security-policy': `default-src 'none'; style-src '${PAGE_STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const AuthorizeQuery = Type.Object({
  client_id: Type.String({ description: 'The partner client id' }),
  redirect_uri: Type.String({ description: 'Exactly one of the redirect URIs registered for the client' }),
  response_type: Type.Union(
    RESPONSE_TYPES.map((type) => Type.Literal(type)),
    {
      description: 'code; token (implicit); id_token or id_token token (OpenID Connect implicit, nonce required)',
    },
  ),
  brandId: Type.Optional(
    Type.String({ format: 'uuid', description: 'Preselect this brand when the user has it (the picker is skipped)' }),
  ),
  state: Type.Optional(Type.String({ description: 'Opaque value echoed back on the redirect' })),
  code_challenge: Type.Optional(
    Type.String({ description: 'PKCE S256 challenge; required for public clients with response_type=code' }),
  ),
  code_challenge_method: Type.Optional(Type.Literal('S256')),
  scope: Type.Optional(
    Type.String({ description: 'Accepted and ignored: tokens act with the user’s permissions in the chosen brand' }),
  ),
  nonce: Type.Optional(
    Type.String({ description: 'OpenID Connect: echoed in the id_token; required for the id_token response types' }),
  ),
  prompt: Type.Optional(
    Type.String({
      description: `OpenID Connect, space-separated: ${PROMPT_VALUES.join(', ')} (none alone). none answers login_required or consent_required to redirect_uri instead of showing a page; login asks for the password again`,
    }),
  ),
  max_age: Type.Optional(
    Type.String({ description: 'OpenID Connect: seconds; an older sign-in on this browser is asked for again' }),
  ),
  login_hint: Type.Optional(Type.String({ description: 'OpenID Connect: the email the sign-in form starts with' })),
});

type FormBody = Record<string, unknown>;
const field = (body: FormBody, name: string): string | undefined =>
  typeof body[name] === 'string' ? body[name] : undefined;

export const webRoutes: FeatureRoutes = async (app, { deps }) => {
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  const store = new SessionStore(deps);

  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
  app.setErrorHandler(async (error, request, reply) => {
    const brand = appBrand(deps);
    if (error instanceof SessionChangedError) {
      const page = messagePage({
        brand,
        title: 'You signed in elsewhere',
        message: 'This sign-in changed in another window while this step was running, so the step was not saved.',
        next: { href: PATHS.step, label: 'Continue' },
      });
      return sendPage(reply, 409, page);
    }
    // Bad input (a NUL in a field, malformed or oversized bodies) is the browser's: a 4xx page, as the API answers.
    const appError = toAppError(error);
    // A body too large or of another type sent to a documented endpoint (POST /oauth2/logout) is a client's: it
    // gets the error body the OpenAPI document declares, from the app's handler.
    const documented = request.routeOptions.schema !== undefined && request.routeOptions.schema.hide !== true;
    if (documented && (appError.http === 413 || appError.http === 415)) throw error;
    if (appError.http < 500) {
      request.log.info({ code: appError.code, message: appError.message }, 'authorization page refused');
      return sendPage(
        reply,
        appError.http,
        messagePage({
          brand,
          title: 'This request could not be accepted',
          message: appError.message,
          detail: 'Go back to the application that sent you here and start again.',
        }),
      );
    }
    request.log.error({ err: error }, 'authorization page failed');
    const page = messagePage({
      brand,
      title: 'Something went wrong',
      message: 'We could not complete this step. Please try again.',
      detail: `Reference: ${request.id}`,
    });
    return sendPage(reply, 500, page);
  });

  /** On a white-label host (request Host, port stripped) the pages speak for that brand. */
  const hostBrand = async (request: FastifyRequest) => {
    const whiteLabel = await whiteLabelBrand(deps.db, request.host);
    const pageBrand: PageBrand = whiteLabel
      ? { name: whiteLabel.name, poweredBy: deps.config.appName }
      : appBrand(deps);
    return { whiteLabel, pageBrand };
  };
  const context = async (request: FastifyRequest, session: WebSession): Promise<StepContext> => ({
    deps,
    store,
    session,
    ...(await hostBrand(request)),
  });

  app.get(
    '/oauth2/auth',
    {
      config: { auth: 'none' },
      attachValidation: true, // the schema documents; parseAuthorizationRequest decides (errors go to a page or the redirect_uri)
      schema: {
        tags: ['OAuth 2'],
        summary: 'Partner authorization (browser redirect)',
        description:
          'Starts the partner flow: sign-in, brand picker, consent, then 302 to redirect_uri with `code` and `brand` in the query (response_type=code) or `access_token`, `expires_in`, `token_type` and `brand` in the fragment (response_type=token; `id_token` too for id_token token, only `id_token` and `brand` for id_token); `state` is echoed. See docs/openid-connect.md for prompt, max_age and login_hint. An unknown client or unregistered redirect_uri answers an HTML error page (400). See docs/partner-authorization.md.',
        security: [],
        querystring: AuthorizeQuery,
        response: {
          200: {
            description: 'The page of the current step (sign-in, MFA code, brand picker or consent)',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          302: {
            description:
              'Back to redirect_uri with `error` (RFC 6749 §4.1.2.1) when the request is invalid for a known client and registered redirect_uri',
          },
          400: {
            description:
              'An HTML error page: unknown client, or a redirect_uri that is not registered (never redirected)',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const parsed = await parseAuthorizationRequest(deps.db, request.query as Record<string, string | string[]>);
      const { whiteLabel, pageBrand } = await hostBrand(request);
      if (parsed.kind === 'page')
        return sendPage(
          reply,
          400,
          messagePage({
            brand: pageBrand,
            title: parsed.title,
            message: parsed.message,
            detail: 'Contact the application’s developer if this keeps happening.',
          }),
        );
      if (parsed.kind === 'redirect') return reply.redirect(parsed.location, 302);
      const existing = await store.load(request);
      const outcome = await interactionOutcome(deps, existing, parsed.interaction);
      if (outcome.kind === 'refused') {
        const { redirectUri, responseType, state } = parsed.request;
        const params = { error: outcome.error, error_description: outcome.description, state };
        return reply.redirect(authorizationRedirect(redirectUri, responseType, params), 302);
      }
      const session = existing ?? (await store.create(reply));
      if (outcome.signOut) await store.switchUser(session, reply, null, false);
      await store.savePending(session, {
        ...parsed.request,
        id: randomToken(16),
        brand: null,
        startedAt: deps.clock.now().getTime(),
      });
      return renderStep({ deps, store, session, pageBrand, whiteLabel }, reply);
    },
  );

  app.get(PATHS.step, PAGE, async (request, reply) => {
    const session = await store.load(request);
    if (!session) return sendPage(reply, 400, noRequestPage((await context(request, emptySession())).pageBrand));
    return renderStep(await context(request, session), reply);
  });

  /** Every POST: a live session, its CSRF token, and the request the form was rendered for. */
  const guard = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ ctx: StepContext; body: FormBody } | null> => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as FormBody;
    const session = await store.load(request);
    const ctx = await context(request, session ?? emptySession());
    if (!session || !store.csrfMatches(session, field(body, 'csrf'))) {
      sendPage(
        reply,
        403,
        messagePage({
          brand: ctx.pageBrand,
          title: 'This page has expired',
          message:
            'For your security this form could not be accepted (its session or security token is missing or out of date).',
          detail:
            'Go back to the application that sent you here and start again. Make sure cookies are allowed for this site.',
        }),
      );
      return null;
    }
    if (!session.pending || field(body, 'request') !== session.pending.id || !pendingIsCurrent(ctx)) {
      sendPage(reply, 400, noRequestPage(ctx.pageBrand));
      return null;
    }
    return { ctx, body };
  };
  const toStep = (reply: FastifyReply) => reply.redirect(PATHS.step, 303);
  const tooMany = (reply: FastifyReply, ctx: StepContext, seconds: number, what: string) =>
    sendPage(
      reply.header('retry-after', String(seconds)),
      429,
      messagePage({
        brand: ctx.pageBrand,
        title: 'Too many attempts',
        message: `Too many ${what}. Please wait ${describeWait(seconds)} and try again.`,
        next: { href: PATHS.step, label: 'Try again' },
      }),
    );

  app.post(PATHS.signIn, PAGE, async (request, reply) => {
    const guarded = await guard(request, reply);
    if (!guarded) return reply;
    const { ctx, body } = guarded;
    const email = field(body, 'email')?.trim() ?? '';
    const password = field(body, 'password') ?? '';
    if (!email || !password)
      return renderStep(ctx, reply, { status: 400, email, error: 'Enter your email address and password.' });
    const outcome = await signInWithPassword(deps, email, password, request.ip);
    if (outcome.kind === 'blocked') return tooMany(reply, ctx, outcome.retryAfterSeconds, 'sign-in attempts');
    if (outcome.kind === 'invalid')
      return renderStep(ctx, reply, { status: 401, email, error: 'The email address or password is incorrect.' });
    await store.switchUser(ctx.session, reply, outcome.user.id, false);
    return toStep(reply);
  });

  app.post(PATHS.mfa, PAGE, async (request, reply) => {
    const guarded = await guard(request, reply);
    if (!guarded) return reply;
    const { ctx, body } = guarded;
    if (!ctx.session.user || ctx.session.mfaPassed) return toStep(reply);
    const code = (field(body, 'code') ?? '').replace(/\s+/g, '');
    // An authenticator's 6 digits, or a recovery code for a user who has lost the authenticator (the MFA module
    // tells them apart, burns a recovery code, and counts both against the same attempt budget).
    if (!/^\d{6}$/.test(code) && !hasRecoveryCodeForm(code))
      return renderStep(ctx, reply, {
        status: 400,
        error: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
      });
    const outcome = await checkTotp(deps, ctx.session.user, code, request.ip);
    if (outcome.kind === 'blocked') return tooMany(reply, ctx, outcome.retryAfterSeconds, 'incorrect codes');
    if (outcome.kind === 'invalid')
      return renderStep(ctx, reply, {
        status: 401,
        error: 'That code is not valid. Check your authenticator app (or your recovery code) and try again.',
      });
    await store.markMfaPassed(ctx.session);
    return toStep(reply);
  });

  app.post(PATHS.brand, PAGE, async (request, reply) => {
    const guarded = await guard(request, reply);
    if (!guarded) return reply;
    const { ctx, body } = guarded;
    const pending = ctx.session.pending!;
    if (!ctx.session.user) return toStep(reply);
    const choices = await brandChoices(deps.db, ctx.session.user, ctx.whiteLabel?.id ?? null);
    const brand = field(body, 'brand');
    if (!choices.some((c) => c.id === brand))
      return renderStep(ctx, reply, { status: 400, error: 'Choose one of the brands listed.' });
    await store.savePending(ctx.session, { ...pending, brand: brand! });
    return toStep(reply);
  });

  app.post(PATHS.decision, PAGE, async (request, reply) => {
    const guarded = await guard(request, reply);
    if (!guarded) return reply;
    const { ctx, body } = guarded;
    const pending = ctx.session.pending!;
    const decision = field(body, 'decision');
    if (decision === 'decline') {
      await store.savePending(ctx.session, null);
      // The client or this redirect URI may have been removed while the request waited: never redirect there.
      if (!(await registeredClient(deps, pending))) return sendPage(reply, 400, noRequestPage(ctx.pageBrand));
      return reply.redirect(
        authorizationRedirect(pending.redirectUri, pending.responseType, {
          error: 'access_denied',
          error_description: 'The user declined the authorization request',
          state: pending.state,
        }),
        302,
      );
    }
    if (decision === 'change-brand') {
      await store.savePending(ctx.session, { ...pending, brand: null, requestedBrand: null });
      return toStep(reply);
    }
    if (decision !== 'approve') return toStep(reply);
    const location = await approve(ctx);
    return location ? reply.redirect(location, 302) : toStep(reply);
  });

  /**
   * RP-initiated logout (end-session.ts): ends this browser's sign-in. Without an id_token_hint for the signed-in
   * user the user confirms first (a POST of our form, with its CSRF token), so a bare link cannot sign anyone out.
   */
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = (request.method === 'GET' ? request.query : request.body) as FormBody | undefined;
    const parsed = await parseLogoutRequest(deps, params ?? {});
    const { pageBrand } = await hostBrand(request);
    if (parsed.kind === 'page')
      return sendPage(reply, 400, messagePage({ brand: pageBrand, title: parsed.title, message: parsed.message }));
    const session = await store.load(request);
    const user = session?.user ? await loadPageUser(deps, session.user) : undefined;
    if (session && user) {
      const confirmed = request.method === 'POST' && store.csrfMatches(session, field(params ?? {}, 'csrf'));
      if (!confirmed && parsed.hintedUser !== user.id) {
        const { clientName, fields } = parsed;
        return sendPage(
          reply,
          200,
          signOutPage({ brand: pageBrand, csrf: session.csrf, email: user.email, clientName, fields }),
        );
      }
      await store.switchUser(session, reply, null, false);
      await store.savePending(session, null);
    }
    if (parsed.redirect) return reply.redirect(parsed.redirect, 302);
    return sendPage(
      reply,
      200,
      messagePage({ brand: pageBrand, title: 'You are signed out', message: 'You can close this window.' }),
    );
  };
  const logoutSchema = {
    tags: ['OAuth 2'],
    summary: 'OpenID Connect RP-initiated logout (end_session_endpoint)',
    description:
      'Ends the browser’s sign-in on the authorization pages. Parameters (query for GET, form for POST): `id_token_hint`, `client_id`, `post_logout_redirect_uri` (registered for the client, exact match), `state` (echoed on the redirect). Without an id_token_hint naming the signed-in user a confirmation page is shown first. Tokens already issued stay valid (revoke them at /oauth2/revoke). See docs/openid-connect.md.',
    security: [],
    response: {
      200: {
        description: 'The confirmation page, or the signed-out page when no post_logout_redirect_uri was sent',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      302: { description: 'To post_logout_redirect_uri, with `state`' },
      400: {
        description:
          'An HTML error page: an id_token_hint not issued here or for another client than client_id, an unknown client, an unregistered post_logout_redirect_uri (never redirected)',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
    },
  };
  app.get(PATHS.logout, { config: { auth: 'none' }, schema: logoutSchema }, logout);
  app.post(
    PATHS.logout,
    { config: { auth: 'none' }, schema: { ...logoutSchema, consumes: FORM_OR_JSON_BODY } },
    logout,
  );

  app.post(PATHS.signOut, PAGE, async (request, reply) => {
    const guarded = await guard(request, reply);
    if (!guarded) return reply;
    await store.switchUser(guarded.ctx.session, reply, null, false);
    await store.savePending(guarded.ctx.session, { ...guarded.ctx.session.pending!, brand: null });
    return toStep(reply);
  });
};

function appBrand(deps: Deps): PageBrand {
  return { name: deps.config.appName, poweredBy: null };
}

function emptySession(): WebSession {
  return { id: '', hash: Buffer.alloc(0), user: null, mfaPassed: false, csrf: '', pending: null, signedInAt: null };
}
