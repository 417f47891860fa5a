// The frame of every public page: head (title, description, the theme's two stylesheets, whatever the page adds
// such as Open Graph tags and JSON-LD), the brand's header, the page's body and a footer. Everything interpolated is
// escaped by `html` (platform/pages/html.ts); a page hands in Html only for markup it built the same way.
import { Html, html } from '../../platform/pages/html.js';
import { contentSecurityPolicy, PUBLIC_PAGE_STYLE, themeStyle } from './page-style.js';
import type { Theme } from './theme.js';

export interface PublicPage {
  title: string;
  description: string;
  theme: Theme;
  /** The app's name, credited in the footer and used as the header when there is no brand. */
  appName: string;
  /** Extra head elements (Open Graph, JSON-LD): Html built by the page. */
  head?: Html;
  body: Html;
  /** Footer lines of the page (an MLS disclaimer), above the brand's contact line. */
  footer?: Html;
  /** A stylesheet of the page's own (the alert pages' cards and form), allowed by its hash like the others. */
  style?: string;
}

export interface RenderedPage {
  html: string;
  /** The Content-Security-Policy allowing exactly this page's stylesheets. */
  csp: string;
}

function header(theme: Theme, appName: string): Html {
  const name = theme.brand?.name ?? appName;
  // A logo of unknown proportions: the attributes give the browser a box (no layout shift), CSS keeps it 40 px high.
  const mark = theme.logoUrl
    ? html`<img class="logo" src="${theme.logoUrl}" alt="${name}" width="220" height="40" decoding="async">`
    : html`<span class="brand-name">${name}</span>`;
  return html`<header class="site"><div class="wrap">${mark}</div></header>`;
}

/**
 * A palette's phone number as a person reads it: a North American number stored in E.164 (`+12145550100`, as the
 * demo brands and most CRMs keep it) is grouped (`+1 214-555-0100`); any other text is shown as the brand wrote it.
 */
export function displayPhone(phone: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone.trim());
  return nanp ? `+1 ${nanp[1]}-${nanp[2]}-${nanp[3]}` : phone;
}

function footer(page: PublicPage): Html {
  const { contact, brand } = page.theme;
  const phone = contact.phone
    ? html` · <a href="tel:${contact.phone.replace(/[^0-9+]/g, '')}">${displayPhone(contact.phone)}</a>`
    : '';
  const brandLine =
    brand && (contact.address || contact.phone)
      ? html`<p>${brand.name}${contact.address ? html` · ${contact.address}` : ''}${phone}</p>`
      : '';
  return html`<footer class="foot"><div class="wrap">${page.footer ?? ''}${brandLine}<p>Powered by ${page.appName}</p></div></footer>`;
}

export function renderPublicPage(page: PublicPage): RenderedPage {
  const themeCss = themeStyle(page.theme.colors);
  const document = html`<html lang="${page.theme.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title}</title>
<meta name="description" content="${page.description}">
${page.head ?? ''}
<style>${new Html(PUBLIC_PAGE_STYLE)}</style>
<style>${new Html(themeCss)}</style>
${page.style ? html`<style>${new Html(page.style)}</style>` : ''}
</head>
<body>
${header(page.theme, page.appName)}
<main class="wrap">
${page.body}
</main>
${footer(page)}
</body>
</html>`;
  return { html: `<!doctype html>\n${document.text}\n`, csp: contentSecurityPolicy(themeCss, page) };
}
