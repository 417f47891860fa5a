// The campaign unsubscribe pages (issue 32 item 4; docs/public-pages.md "Unsubscribe pages"), in the brand's style:
// the question a GET of the List-Unsubscribe link asks, the confirmation after the POST with "everything from this
// brand" one click further, that second confirmation, and the page of a link that does not hold. The forms post to
// the link itself (relative actions), so the page works under any WEB_URL/BASE_URL.
import { createHash } from 'node:crypto';
import { Html, html } from '../../platform/pages/html.js';
import { renderPublicPage, type RenderedPage } from './page-layout.js';
import type { Theme } from './theme.js';

/** The few rules these pages add to the shared stylesheet: a form button that looks like the page's buttons. */
const UNSUBSCRIBE_STYLE =
  '.unsub{padding:40px 0;max-width:560px}.unsub form{margin:20px 0 0}' +
  'button.button{border:0;font:inherit;font-weight:600;cursor:pointer;margin:0}' +
  '.unsub .card{margin-top:32px}.unsub .card h2{font-size:18px}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(UNSUBSCRIBE_STYLE).digest('base64')}'`;

export interface UnsubscribeView {
  theme: Theme;
  appName: string;
  address: string;
  /** The link's own token (the forms post to `<token>` and `<token>/everything`, relative to the page). */
  token: string;
}

/** Who the mail came from, as the page names it: the brand, else (a brand deleted since) "this sender". */
const senderOf = (theme: Theme) => theme.brand?.name ?? 'this sender';

function page(view: Pick<UnsubscribeView, 'theme' | 'appName'>, title: string, body: Html): RenderedPage {
  const rendered = renderPublicPage({
    title: `${title} · ${view.theme.brand?.name ?? view.appName}`,
    description: title,
    theme: view.theme,
    appName: view.appName,
    head: html`<meta name="robots" content="noindex"><style>${new Html(UNSUBSCRIBE_STYLE)}</style>`,
    body: html`<div class="unsub">${body}</div>`,
  });
  // This page's stylesheet joins the shared two, and its forms post back to this server (the listing page posts none).
  const csp = rendered.csp
    .replace(/(^|; )style-src /, `$1style-src ${STYLE_HASH} `)
    .replace("form-action 'none'", "form-action 'self'");
  return { html: rendered.html, csp };
}

/** GET of the link: a question and a button; nothing changes until the button is pressed. */
export function askPage(view: UnsubscribeView): RenderedPage {
  const sender = senderOf(view.theme);
  return page(
    view,
    'Unsubscribe',
    html`<h1>Unsubscribe?</h1>
<p>Unsubscribe <strong>${view.address}</strong> from ${sender}’s emails?</p>
<p class="muted">You will get no more marketing email from ${sender} at this address.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button class="button" type="submit">Unsubscribe</button></form>`,
  );
}

/** After the POST (ours or a mail client's): done, and "everything from this brand" one click further. */
export function unsubscribedPage(view: UnsubscribeView): RenderedPage {
  const sender = senderOf(view.theme);
  return page(
    view,
    'Unsubscribed',
    html`<h1>Unsubscribed</h1>
<p><strong>${view.address}</strong> will receive no more marketing email from ${sender}.</p>
<section class="card"><h2>Unsubscribe from everything from ${sender}</h2>
<p class="muted">Also stop the listing alerts ${sender} sends you, and email from its offices and teams.</p>
<form method="post" action="${view.token}/everything"><input type="hidden" name="scope" value="everything"><button class="button" type="submit">Unsubscribe from everything</button></form></section>`,
  );
}

export function everythingPage(view: Omit<UnsubscribeView, 'token'>): RenderedPage {
  const sender = senderOf(view.theme);
  return page(
    view,
    'Unsubscribed from everything',
    html`<h1>Unsubscribed from everything</h1>
<p><strong>${view.address}</strong> will receive nothing more from ${sender}: no marketing email, from it or its offices and teams, and no listing alerts.</p>
<p class="muted">Changed your mind? Ask your agent to add you back.</p>`,
  );
}

/** A link that was changed (4xx), or whose message is no longer on file. */
export function linkProblemPage(input: { theme: Theme; appName: string; status: number }): RenderedPage {
  const gone = input.status === 404;
  return page(
    input,
    gone ? 'Link expired' : 'Link not valid',
    gone
      ? html`<h1>This link has expired</h1><p>The message it came from is no longer on file. To stop these emails, reply to the sender and ask to be removed.</p>`
      : html`<h1>This link is not valid</h1><p>It was changed or is incomplete, so nothing was changed. Open the unsubscribe link from the email again, or reply to the sender and ask to be removed.</p>`,
  );
}
