// A tiny HTML template: every interpolated value is escaped unless it is already Html (built by `html`). Every
// server-rendered page is composed from these (the partner authorization pages of src/web, the extmail and
// saved-search pages), so nothing user- or partner-controlled reaches a page unescaped.
import { PAGE_STYLE } from './styles.js';

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Interpolated = Html | string | number | boolean | null | undefined | readonly Interpolated[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Who the page speaks for: the app, or the white-label brand of the host. */
export interface PageBrand {
  name: string;
  /** The app behind a white-label brand, credited in the footer. */
  poweredBy: string | null;
}

export interface PageOptions {
  title: string;
  brand: PageBrand;
  body: Html;
}

export function layout({ title, brand, body }: PageOptions): string {
  const monogram = brand.name.trim().charAt(0).toUpperCase() || 'G';
  return `<!doctype html>${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${title} · ${brand.name}</title>
<style>${new Html(PAGE_STYLE)}</style>
</head>
<body>
<main class="card">
<header class="masthead"><span class="monogram" aria-hidden="true">${monogram}</span><span class="brand-name">${brand.name}</span></header>
${body}
</main>
${brand.poweredBy ? html`<footer class="footer">Secured by ${brand.poweredBy}</footer>` : ''}
</body>
</html>`.text
  }`;
}

/** An error summary that screen readers announce when the page loads. */
export function alertBox(message: string | null | undefined, id = 'form-error'): Html {
  return message ? html`<div class="alert" role="alert" id="${id}">${message}</div>` : html``;
}

/** Hidden fields every form carries: the CSRF token and the id of the authorization request. */
export function formGuards(csrf: string, requestId: string): Html {
  return html`<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="request" value="${requestId}">`;
}
