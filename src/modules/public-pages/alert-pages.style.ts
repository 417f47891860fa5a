// The alert pages' own stylesheet (results cards, pager, preferences form), on top of the public pages' one and
// allowed by its hash like it (page-layout.ts). Cards sit one per row on a phone, as many as fit from 600 px up.
export const ALERT_PAGES_STYLE = `
.alert-head{margin:24px 0 8px}
.alert-head p{margin:0}
.results{list-style:none;padding:0;margin:16px 0 0;display:grid;gap:16px;grid-template-columns:repeat(auto-fill,minmax(min(100%,260px),1fr))}
.result{border:1px solid var(--line);border-radius:12px;overflow:hidden}
.result img,.no-photo{width:100%;aspect-ratio:4/3;object-fit:cover;background:var(--line)}
.result-body{padding:12px 16px 16px}
.result-body p{margin:0 0 4px}
.card-price{font-size:22px;font-weight:700}
.card-address{font-size:17px;line-height:1.35;margin:4px 0}
.card-address a{color:var(--text)}
.pager{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:12px;margin:24px 0 0}
.notice{border-left:4px solid var(--accent);padding:8px 12px;margin:16px 0;font-weight:600}
.prefs{margin:16px 0 0;max-width:640px}
.pref{display:grid;gap:4px;padding:12px 0;border-bottom:1px solid var(--line)}
.pref label{font-weight:600}
.pref select{font:inherit;padding:8px;border:1px solid var(--muted);border-radius:8px;background:var(--bg);color:var(--text);max-width:100%}
button.button{border:0;font:inherit;font-weight:600;cursor:pointer}
button.link{background:none;border:0;padding:0;font:inherit;color:var(--link);text-decoration:underline;cursor:pointer}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:16px;margin-top:16px}
.actions .button{margin-top:0}
`;
