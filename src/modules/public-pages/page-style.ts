// The stylesheet of the public pages (listing page; later the alert results and preferences): inlined, no external
// asset, allowed by its hash in the Content-Security-Policy. Mobile first (readable from 360 px), a second column
// from 900 px; no script. The colours come from the theme's custom properties (themeStyle), a second, tiny <style>.
import { createHash } from 'node:crypto';
import type { PageColors } from './theme.js';

export const PUBLIC_PAGE_STYLE = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px;line-height:1.5;color:var(--text);background:var(--bg);-webkit-text-size-adjust:100%;color-scheme:light}
body{margin:0;overflow-wrap:anywhere}
img{max-width:100%;height:auto;display:block}
a{color:var(--link)}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.wrap{max-width:1080px;margin:0 auto;padding:0 16px}
.site{border-bottom:1px solid var(--line)}
.site .wrap{display:flex;align-items:center;min-height:64px;gap:12px}
.logo{height:40px;width:auto;max-width:220px;object-fit:contain;object-position:left center}
.brand-name{font-weight:700;font-size:18px}
.gallery{display:flex;gap:8px;overflow-x:auto;scroll-snap-type:x mandatory;list-style:none;margin:16px 0 0;padding:0 0 8px}
.gallery li{flex:0 0 88%;scroll-snap-align:start}
.gallery li:only-child{flex-basis:100%}
.gallery img{width:100%;aspect-ratio:4/3;object-fit:cover;border-radius:12px;background:var(--line)}
.photo-count{color:var(--muted);font-size:14px;margin:4px 0 0}
.status{display:inline-block;font-size:14px;font-weight:600;padding:2px 12px;border-radius:999px;background:var(--accent);color:var(--accent-text)}
.dom{color:var(--muted);font-size:14px;margin-left:4px}
h1{font-size:26px;line-height:1.2;margin:12px 0 4px}
h2{font-size:20px;line-height:1.3;margin:0 0 12px}
.locality{color:var(--muted);margin:0}
.price{font-size:30px;font-weight:700;margin:12px 0 0}
.price-note{color:var(--muted);font-size:14px;margin:0}
.facts{display:flex;flex-wrap:wrap;gap:8px 24px;list-style:none;padding:0;margin:16px 0 0}
.facts li{color:var(--muted);font-size:14px}
.facts strong{display:block;color:var(--text);font-size:20px}
.columns{display:grid;gap:32px;margin-top:32px}
.remarks{white-space:pre-line;margin:0 0 24px}
.details{display:grid;grid-template-columns:minmax(0,auto) minmax(0,1fr);gap:6px 16px;margin:0}
.details dt{color:var(--muted)}
.details dd{margin:0}
.card{border:1px solid var(--line);border-radius:12px;padding:16px;margin:0 0 16px}
.card p{margin:0 0 4px}
.houses{list-style:none;padding:0;margin:0;display:grid;gap:8px}
.houses span{display:block;color:var(--muted);font-size:14px}
.agent-name{font-weight:700}
.muted{color:var(--muted)}
.button{display:inline-block;margin-top:8px;background:var(--accent);color:var(--accent-text);padding:10px 16px;border-radius:10px;font-weight:600;text-decoration:none}
.foot{border-top:1px solid var(--line);margin-top:40px;padding:24px 0 32px;color:var(--muted);font-size:13px}
.foot p{margin:0 0 8px}
.mls-logo{height:32px;width:auto;margin-bottom:8px}
.not-found{padding:48px 0;max-width:560px}
.ask form{display:grid;gap:12px}
.field label{display:block;font-weight:600;margin-bottom:4px}
.field input,.field textarea{display:block;width:100%;font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--muted);border-radius:8px;padding:10px 12px}
.field textarea{resize:vertical;min-height:96px}
.field-error,.card .form-error{font-weight:600;margin:0 0 4px;border-left:4px solid var(--accent);padding-left:8px}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.small{font-size:13px}
button.button{border:0;font:inherit;font-weight:600;cursor:pointer;justify-self:start}
.ask-page{max-width:560px;padding:16px 0}
@media (min-width:720px){.gallery li{flex-basis:48%}.gallery li:first-child{flex-basis:100%}.gallery li:first-child img{aspect-ratio:16/9;max-height:540px}h1{font-size:32px}}
@media (min-width:900px){.columns{grid-template-columns:minmax(0,1fr) 320px}}
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const PUBLIC_PAGE_STYLE_HASH = hash(PUBLIC_PAGE_STYLE);

/** The theme's colours as custom properties (every value a checked hex colour: nothing to escape). */
export function themeStyle(colors: PageColors): string {
  return `:root{--bg:${colors.background};--text:${colors.text};--muted:${colors.muted};--line:${colors.line};--accent:${colors.accent};--accent-text:${colors.accentText};--link:${colors.link}}`;
}

/**
 * The page's Content-Security-Policy: no script at all, only these two stylesheets (by hash), images from any
 * http(s) host (listing photos, brand and MLS logos live on the feeds' and brands' own hosts), never framed. Forms
 * post to this server only (the "Ask about this home" form).
 * A JSON-LD block is data, not script: CSP does not apply to it.
 */
export function contentSecurityPolicy(themeCss: string, page: { style?: string } = {}): string {
  const styles = [PUBLIC_PAGE_STYLE_HASH, hash(themeCss), ...(page.style ? [hash(page.style)] : [])];
  return [
    "default-src 'none'",
    `style-src ${styles.join(' ')}`,
    'img-src https: http:',
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}
