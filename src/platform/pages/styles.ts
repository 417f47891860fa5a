// The one stylesheet of the authorization pages, inlined (no external assets) and allowed by its hash in
// the Content-Security-Policy, so no other inline style or script can run on these pages.
import { createHash } from 'node:crypto';

export const PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#f3f5f9;--card:#fff;--text:#172033;--muted:#5b6578;--line:#d8dde7;--accent:#2453d6;--accent-text:#fff;--accent-soft:#e8eefc;--danger:#b42318;--danger-soft:#fdecea;--focus:#7aa2ff}
@media (prefers-color-scheme:dark){:root{--bg:#0f141d;--card:#182030;--text:#e8ecf4;--muted:#a2acbf;--line:#2e3a50;--accent:#7aa2ff;--accent-text:#0b1020;--accent-soft:#1f2b45;--danger:#ff8a80;--danger-soft:#3a1d1d;--focus:#b7cbff}}
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px;line-height:1.5;color:var(--text);background:var(--bg)}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px 16px}
.card{width:100%;max-width:440px;background:var(--card);border:1px solid var(--line);border-radius:16px;padding:32px;box-shadow:0 12px 32px rgba(15,23,42,.08)}
.masthead{display:flex;align-items:center;gap:10px;margin-bottom:24px}
.monogram{display:inline-flex;align-items:center;justify-content:center;width:36px;height:36px;border-radius:10px;background:var(--accent);color:var(--accent-text);font-weight:700;font-size:18px}
.brand-name{font-weight:600;font-size:17px;letter-spacing:.01em}
h1{font-size:24px;line-height:1.25;margin:0 0 8px}
.lead{color:var(--muted);margin:0 0 24px}
.lead strong{color:var(--text)}
label,.label{display:block;font-weight:600;font-size:14px;margin:0 0 6px}
.field{margin-bottom:18px}
.hint{color:var(--muted);font-size:13px;margin:6px 0 0}
input[type=email],input[type=password],input[type=text]{width:100%;font:inherit;padding:11px 12px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--text)}
input[aria-invalid=true]{border-color:var(--danger)}
input.code{font-size:24px;letter-spacing:.4em;text-align:center;font-variant-numeric:tabular-nums}
.button{display:block;width:100%;font:inherit;font-weight:600;padding:12px 16px;border-radius:10px;border:1px solid transparent;cursor:pointer;text-align:center;text-decoration:none}
.primary{background:var(--accent);color:var(--accent-text)}
.primary:hover{filter:brightness(1.08)}
.secondary{background:transparent;color:var(--text);border-color:var(--line)}
.secondary:hover{background:var(--accent-soft)}
.link{background:none;border:0;padding:0;font:inherit;font-size:14px;color:var(--accent);cursor:pointer;text-decoration:underline}
.actions{display:grid;gap:10px;margin-top:24px}
.actions.split{grid-template-columns:1fr 1fr}
/* Primary first in the markup (Enter in a field submits the first button), shown on the right. */
.actions.split .secondary{order:-1}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.alert{background:var(--danger-soft);color:var(--danger);border:1px solid currentColor;border-radius:10px;padding:10px 12px;margin:0 0 18px;font-size:14px}
fieldset{border:0;margin:0;padding:0}
legend{font-weight:600;font-size:14px;margin-bottom:8px;padding:0}
.choices{display:grid;gap:8px;max-height:50vh;overflow:auto;padding:2px}
.choice{display:flex;align-items:flex-start;gap:12px;padding:12px 14px;border:1px solid var(--line);border-radius:12px;cursor:pointer;font-weight:400;margin:0}
.choice:hover{background:var(--accent-soft)}
.choice:has(input:checked){border-color:var(--accent);background:var(--accent-soft);box-shadow:inset 0 0 0 1px var(--accent)}
.choice input{margin:4px 0 0;accent-color:var(--accent)}
.choice-name{display:block;font-weight:600}
.choice-parent{display:block;color:var(--muted);font-size:13px}
.grant{border:1px solid var(--line);border-radius:12px;padding:16px;margin:0 0 8px}
.grant h2{font-size:15px;margin:0 0 10px}
.grant ul{margin:0;padding-left:20px}
.grant li{margin:4px 0}
.who{display:flex;justify-content:space-between;align-items:baseline;gap:12px;flex-wrap:wrap;color:var(--muted);font-size:14px;border-top:1px solid var(--line);margin-top:24px;padding-top:16px}
.who form{margin:0}
.footer{color:var(--muted);font-size:13px;margin-top:16px}
.muted{color:var(--muted)}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
`;

export const PAGE_STYLE_HASH = `sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}`;
