// The friendly 404 of the public pages: a listing that does not exist, is no longer shown publicly, or a link that
// is mistyped. Still a page of the brand the link named when its signature holds.
import { html } from '../../platform/pages/html.js';
import { renderPublicPage, type RenderedPage } from './page-layout.js';
import type { Theme } from './theme.js';

export function notFoundPage(input: { theme: Theme; appName: string }): RenderedPage {
  const siteName = input.theme.brand?.name ?? input.appName;
  return renderPublicPage({
    title: `Home not found · ${siteName}`,
    description: 'This home is not available.',
    theme: input.theme,
    appName: input.appName,
    body: html`<div class="not-found"><h1>We couldn’t find this home</h1>
<p>It may have been taken off the market, or the link may be incomplete. Check the link you followed, or ask the agent who sent it for the latest listing.</p></div>`,
  });
}
