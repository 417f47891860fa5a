// The "Ask about this home" form and the pages around it (docs/public-pages.md): the form on the listing page, the
// same form again with its errors and the visitor's values, the thanks page, and the pages of a refused post. No
// script: labels, native validation hints and a server that checks everything again. Every value is escaped by
// `html`, the visitor's message included (it is never markup).
import { html, type Html } from '../../platform/pages/html.js';
import { renderPublicPage, type RenderedPage } from './page-layout.js';
import type { Theme } from './theme.js';

export interface AskValues {
  name: string;
  email: string;
  phone: string;
  message: string;
}
export type AskField = keyof AskValues;
export type AskErrors = Partial<Record<AskField | 'form', string>>;

export const ASK_LIMITS: Record<AskField, number> = { name: 200, email: 254, phone: 40, message: 5000 };
/** The honeypot's name: a field a person never sees and a form-filling bot fills. */
export const HONEYPOT_FIELD = 'website';

/** What the listing page needs to offer the form (lead-form.service.ts askFormFor). */
export interface AskFormSetup {
  /** Where the form posts (a path on this server). */
  action: string;
  /** The signed form token (lead-form.token.ts). */
  token: string;
  /** The brand the lead goes to, named under the button. */
  brandName: string;
}

export interface AskFormInput extends AskFormSetup {
  values: AskValues;
  errors?: AskErrors;
}

export const defaultAskMessage = (address: string) => `I’d like to know more about ${address}.`;

function field(
  input: AskFormInput,
  name: AskField,
  label: string,
  control: (attrs: Html) => Html,
  optional = false,
): Html {
  const error = input.errors?.[name];
  const id = `ask-${name}`;
  const attrs = html`id="${id}" name="${name}" maxlength="${ASK_LIMITS[name]}"${
    error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }`;
  return html`<div class="field"><label for="${id}">${label}${optional ? html` <span class="muted">(optional)</span>` : ''}</label>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}${control(attrs)}</div>`;
}

/** The form itself, a card of the listing page (or of the page that shows it again with its errors). */
export function askForm(input: AskFormInput): Html {
  const { values } = input;
  const formError = input.errors?.form;
  return html`<section class="card ask" aria-labelledby="ask-title"><h2 id="ask-title">Ask about this home</h2>
${formError ? html`<p class="form-error" role="alert">${formError}</p>` : ''}<form method="post" action="${input.action}">
<input type="hidden" name="token" value="${input.token}">
${field(input, 'name', 'Name', (a) => html`<input ${a} type="text" autocomplete="name" required value="${values.name}">`)}
${field(input, 'email', 'Email', (a) => html`<input ${a} type="email" autocomplete="email" required value="${values.email}">`)}
${field(input, 'phone', 'Phone', (a) => html`<input ${a} type="tel" autocomplete="tel" value="${values.phone}">`, true)}
${field(input, 'message', 'Message', (a) => html`<textarea ${a} rows="4">${values.message}</textarea>`)}
<div class="hp" aria-hidden="true"><label for="ask-${HONEYPOT_FIELD}">Leave this field empty</label><input id="ask-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value=""></div>
<button class="button" type="submit">Send</button>
<p class="muted small">Your details go to ${input.brandName} only, to answer you.</p>
</form></section>`;
}

interface PageFrame {
  theme: Theme;
  appName: string;
}
const siteName = (frame: PageFrame) => frame.theme.brand?.name ?? frame.appName;

/** The form again, alone, with what was wrong and what the visitor typed (a post the server refused). */
export function askAgainPage(
  frame: PageFrame & { form: AskFormInput; address: string; listingHref: string },
): RenderedPage {
  return renderPublicPage({
    title: `Ask about ${frame.address} · ${siteName(frame)}`,
    description: `Ask about ${frame.address}`,
    theme: frame.theme,
    appName: frame.appName,
    body: html`<div class="ask-page"><p><a href="${frame.listingHref}">← Back to ${frame.address}</a></p>${askForm(frame.form)}</div>`,
  });
}

/** Where a sent form lands (Post/Redirect/Get): the same page for a real post and for a trapped bot's. */
export function thanksPage(frame: PageFrame & { agentName: string; listingHref: string }): RenderedPage {
  return renderPublicPage({
    title: `Thanks · ${siteName(frame)}`,
    description: 'Your question was sent.',
    theme: frame.theme,
    appName: frame.appName,
    body: html`<div class="not-found"><h1>Thanks, ${frame.agentName} will be in touch</h1>
<p>Your question was sent. You will hear back by email or phone.</p>
<p><a class="button" href="${frame.listingHref}">Back to the home</a></p></div>`,
  });
}

/** A post refused as a whole (an expired or forged form, too many posts, too large a post): what to do now. */
export function refusedPostPage(
  frame: PageFrame & { heading: string; text: string; listingHref: string | null },
): RenderedPage {
  return renderPublicPage({
    title: `${frame.heading} · ${siteName(frame)}`,
    description: frame.heading,
    theme: frame.theme,
    appName: frame.appName,
    body: html`<div class="not-found"><h1>${frame.heading}</h1><p>${frame.text}</p>${
      frame.listingHref ? html`<p><a class="button" href="${frame.listingHref}">Back to the home</a></p>` : ''
    }</div>`,
  });
}
