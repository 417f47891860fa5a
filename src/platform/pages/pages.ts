// Sign-in, MFA and message pages of the partner authorization flow.
import { alertBox, formGuards, html, layout, type PageBrand } from './html.js';

export const PATHS = {
  step: '/oauth2/auth/step',
  signIn: '/oauth2/auth/sign-in',
  mfa: '/oauth2/auth/mfa',
  brand: '/oauth2/auth/brand',
  decision: '/oauth2/auth/decision',
  signOut: '/oauth2/auth/sign-out',
  /** OpenID Connect RP-initiated logout (the end_session_endpoint). */
  logout: '/oauth2/logout',
} as const;

export interface FormContext {
  brand: PageBrand;
  csrf: string;
  requestId: string;
  clientName: string;
}

export function signInPage(ctx: FormContext & { email?: string; error?: string }): string {
  const invalid = ctx.error ? 'true' : 'false';
  const described = ctx.error ? 'form-error' : undefined;
  return layout({
    title: 'Sign in',
    brand: ctx.brand,
    body: html`<h1>Sign in</h1>
<p class="lead">to continue to <strong>${ctx.clientName}</strong></p>
${alertBox(ctx.error)}
<form method="post" action="${PATHS.signIn}" novalidate>
${formGuards(ctx.csrf, ctx.requestId)}
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required${ctx.email ? '' : html` autofocus`} value="${ctx.email ?? ''}" aria-invalid="${invalid}" ${described ? html`aria-describedby="${described}"` : ''}></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${ctx.email ? html` autofocus` : ''} aria-invalid="${invalid}" ${described ? html`aria-describedby="${described}"` : ''}></div>
<div class="actions"><button class="button primary" type="submit">Sign in</button>
<button class="button secondary" type="submit" formaction="${PATHS.decision}" formnovalidate name="decision" value="decline">Cancel</button></div>
</form>`,
  });
}

export function mfaPage(ctx: FormContext & { email: string; error?: string }): string {
  return layout({
    title: 'Two-step verification',
    brand: ctx.brand,
    body: html`<h1>Two-step verification</h1>
<p class="lead">Enter the 6-digit code from your authenticator app to continue to <strong>${ctx.clientName}</strong>.</p>
${alertBox(ctx.error)}
<form method="post" action="${PATHS.mfa}" novalidate>
${formGuards(ctx.csrf, ctx.requestId)}
<div class="field"><label for="code">Authentication code</label>
<input class="code" id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="24" required autofocus aria-invalid="${ctx.error ? 'true' : 'false'}" aria-describedby="code-hint${ctx.error ? ' form-error' : ''}">
<p class="hint" id="code-hint">The code changes every 30 seconds. Lost your authenticator? Enter one of the recovery codes you were given when you turned two-step verification on; each works once.</p></div>
<div class="actions"><button class="button primary" type="submit">Verify</button></div>
</form>
${signedInAs(ctx, ctx.email)}`,
  });
}

/** "Signed in as …" with a way to switch account, under the steps after sign-in. */
export function signedInAs(ctx: FormContext, email: string) {
  return html`<div class="who"><span>Signed in as <strong>${email}</strong></span>
<form method="post" action="${PATHS.signOut}">${formGuards(ctx.csrf, ctx.requestId)}<button class="link" type="submit">Use another account</button></form></div>`;
}

export interface MessagePage {
  brand: PageBrand;
  title: string;
  message: string;
  detail?: string;
  /** A link to continue, e.g. back to the sign-in form after a rate limit. */
  next?: { href: string; label: string };
}

export function messagePage(page: MessagePage): string {
  return layout({
    title: page.title,
    brand: page.brand,
    body: html`<h1>${page.title}</h1>
<div role="alert"><p class="lead">${page.message}</p>
${page.detail ? html`<p class="muted">${page.detail}</p>` : ''}</div>
${page.next ? html`<div class="actions"><a class="button secondary" href="${page.next.href}">${page.next.label}</a></div>` : ''}`,
  });
}

/** "2 minutes", "45 seconds": the wait of a rate-limited sign-in, in words. */
export function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export interface SignOutConfirmation {
  brand: PageBrand;
  csrf: string;
  email: string;
  /** The application that asked for the sign-out, when the request named one. */
  clientName: string | null;
  /** The logout request's parameters, posted back with the confirmation. */
  fields: Record<string, string>;
}

/** RP-initiated logout without proof of who asks: the user confirms, so a link alone cannot sign them out. */
export function signOutPage(ctx: SignOutConfirmation): string {
  return layout({
    title: 'Sign out',
    brand: ctx.brand,
    body: html`<h1>Sign out?</h1>
<p class="lead">${ctx.clientName ? html`<strong>${ctx.clientName}</strong> asks to sign you out` : 'Sign out'} of ${ctx.brand.name}, <strong>${ctx.email}</strong>.</p>
<form method="post" action="${PATHS.logout}">
<input type="hidden" name="csrf" value="${ctx.csrf}">
${Object.entries(ctx.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<div class="actions"><button class="button primary" type="submit">Sign out</button></div>
</form>`,
  });
}
