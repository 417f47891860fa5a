// Brand picker and consent pages.
import { alertBox, formGuards, html, layout, type Html } from '../platform/pages/html.js';
import { PATHS, signedInAs, type FormContext } from '../platform/pages/pages.js';
import { isScope, SCOPE_DESCRIPTIONS } from '../platform/api-scopes.js';

export interface BrandChoice {
  id: string;
  name: string;
  parentName: string | null;
}

export function pickerPage(
  ctx: FormContext & { email: string; choices: BrandChoice[]; selected: string | null; error?: string },
): string {
  const selected = ctx.selected ?? (ctx.choices.length === 1 ? ctx.choices[0]!.id : null);
  const cancel = html`<button class="button secondary" type="submit" formaction="${PATHS.decision}" formnovalidate name="decision" value="decline">Cancel</button>`;
  if (ctx.choices.length === 0) {
    return layout({
      title: 'No brand available',
      brand: ctx.brand,
      body: html`<h1>No brand available</h1>
<p class="lead" role="alert">Your account is not a member of any brand that <strong>${ctx.clientName}</strong> can be connected to here.</p>
<form method="post" action="${PATHS.decision}">${formGuards(ctx.csrf, ctx.requestId)}<div class="actions">${cancel}</div></form>
${signedInAs(ctx, ctx.email)}`,
    });
  }
  return layout({
    title: 'Choose a brand',
    brand: ctx.brand,
    body: html`<h1>Choose a brand</h1>
<p class="lead"><strong>${ctx.clientName}</strong> will work in the brand you choose, and in the offices and teams under it.</p>
${alertBox(ctx.error)}
<form method="post" action="${PATHS.brand}">
${formGuards(ctx.csrf, ctx.requestId)}
<fieldset${ctx.error ? html` aria-describedby="form-error"` : ''}><legend>Brands you belong to</legend>
<div class="choices">${ctx.choices.map(
      (
        choice,
      ) => html`<label class="choice"><input type="radio" name="brand" value="${choice.id}" required${choice.id === selected ? html` checked` : ''}>
<span><span class="choice-name">${choice.name}</span>${choice.parentName ? html`<span class="choice-parent">in ${choice.parentName}</span>` : ''}</span></label>`,
    )}</div>
</fieldset>
<div class="actions split"><button class="button primary" type="submit">Continue</button>${cancel}</div>
</form>
${signedInAs(ctx, ctx.email)}`,
  });
}

export interface ConsentContext extends FormContext {
  email: string;
  userName: string;
  appName: string;
  chosen: BrandChoice;
  /**
   * What the approval hands over: a refresh family (`code`), an access token alone (`token`, the implicit types
   * with one), or only an id_token (`id_token`: who the user is, no API access at all).
   */
  responseType: 'code' | 'token' | 'id_token';
  /** Offer "Choose another brand" (the user reaches more than one brand). */
  canChangeBrand: boolean;
  /** The scopes the approval grants (decisions §22), said in words on the page. */
  scopes: readonly string[];
}

/** What the consent page says for the scopes besides `full`, which keeps the words it always had. */
function scopeItems(ctx: ConsentContext): Html[] {
  const items = ctx.scopes.includes('full')
    ? [
        html`<li>See your profile: your name and email address</li>`,
        html`<li>Read and change what you can in ${ctx.chosen.name} and the offices and teams under it, such as contacts, saved searches, triggers and campaigns, with your permissions</li>`,
      ]
    : [];
  for (const scope of ctx.scopes)
    if (scope !== 'full' && isScope(scope))
      items.push(html`<li data-scope="${scope}">${SCOPE_DESCRIPTIONS[scope]}</li>`);
  return items;
}

/**
 * What response_type=id_token alone shares (OIDC Core §3.2): who the user is, and the claims its identity scopes
 * release (openid.claims.ts), once. No access token is issued, so nothing about API access or its duration.
 */
function identityItems(ctx: ConsentContext): Html[] {
  const items = [
    html`<li data-scope="openid">Know who you are: your ${ctx.appName} account’s identifier and when you signed in</li>`,
  ];
  for (const scope of ['profile', 'email', 'phone'] as const)
    if (ctx.scopes.includes(scope)) items.push(html`<li data-scope="${scope}">${SCOPE_DESCRIPTIONS[scope]}</li>`);
  return items;
}

function identityConsentPage(ctx: ConsentContext): string {
  return layout({
    title: `Sign in to ${ctx.clientName}`,
    brand: ctx.brand,
    body: html`<h1>Sign in to ${ctx.clientName} with your ${ctx.appName} account?</h1>
<p class="lead"><strong>${ctx.clientName}</strong> wants to know who you are, ${ctx.userName}, to sign you in.</p>
<section class="grant" aria-labelledby="grant-title"><h2 id="grant-title">${ctx.clientName} will be told</h2>
<ul>
${identityItems(ctx)}
</ul></section>
<p class="hint">This shares who you are once. ${ctx.clientName} gets no access to your account, your brands or their data, and cannot see your password.</p>
${decisionForm(ctx)}
${signedInAs(ctx, ctx.email)}`,
  });
}

/** Decline, Approve and (with a choice of brands) "Choose another brand": the consent pages' one form. */
function decisionForm(ctx: ConsentContext) {
  return html`<form method="post" action="${PATHS.decision}">
${formGuards(ctx.csrf, ctx.requestId)}
<div class="actions split"><button class="button secondary" type="submit" name="decision" value="decline">Decline</button><button class="button primary" type="submit" name="decision" value="approve">Approve</button></div>
${ctx.canChangeBrand ? html`<p class="hint"><button class="link" type="submit" name="decision" value="change-brand">Choose another brand</button></p>` : ''}
</form>`;
}

export function consentPage(ctx: ConsentContext): string {
  if (ctx.responseType === 'id_token') return identityConsentPage(ctx);
  const duration =
    ctx.responseType === 'code'
      ? 'Stay connected until you or an administrator revoke its access'
      : 'Keep this access for 31 days; after that it must ask you again';
  return layout({
    title: `Allow ${ctx.clientName}`,
    brand: ctx.brand,
    body: html`<h1>Allow ${ctx.clientName} to access ${ctx.chosen.name}?</h1>
<p class="lead"><strong>${ctx.clientName}</strong> wants to use your ${ctx.appName} account, ${ctx.userName}, in the brand <strong>${ctx.chosen.name}</strong>${ctx.chosen.parentName ? html` (in ${ctx.chosen.parentName})` : ''}.</p>
<section class="grant" aria-labelledby="grant-title"><h2 id="grant-title">${ctx.clientName} will be able to</h2>
<ul>
${scopeItems(ctx)}
<li>${duration}</li>
</ul></section>
<p class="hint">It cannot see your password, and it cannot act in your other brands.</p>
${decisionForm(ctx)}
${signedInAs(ctx, ctx.email)}`,
  });
}
