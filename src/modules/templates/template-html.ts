// The HTML sanitiser of templates and template instances (docs/templates.md). A template is a whole page that a
// browser on the server renders, so it may style itself (<style>, style="…") but may not run anything (no
// scripts, no event handlers, no frames, objects or forms), may not load fonts except from the allow-listed font
// hosts, and may not name file: URLs or private addresses (render/url-policy.ts). The work is done by sanitize-html (an
// allow-list of tags and attributes, ADR 0011-print-sanitize-html); CSS, which it passes through untouched, is
// cleaned here. Template-language markup (`{{ … }}`, `{% … %}`) is set aside before cleaning and put back after,
// so that the cleaner neither mangles it nor lets it hide anything: what it produces is cleaned again after
// rendering (sanitizeHtml without `template`).
import sanitize from 'sanitize-html';
import { isAllowedUrl, type UrlOptions, type UrlUse } from '../../render/url-policy.js';

const TAGS = [
  'html',
  'head',
  'body',
  'title',
  'meta',
  'link',
  'style',
  'main',
  'header',
  'footer',
  'section',
  'article',
  'aside',
  'nav',
  'figure',
  'figcaption',
  'address',
  'div',
  'span',
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'code',
  'a',
  'img',
  'picture',
  'source',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'mark',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'colgroup',
  'col',
];

const COMMON_ATTRIBUTES = [
  'class',
  'id',
  'style',
  'title',
  'lang',
  'dir',
  'role',
  'width',
  'height',
  'align',
  'valign',
  'data-*',
  'aria-*',
];

const URL_ATTRIBUTES: Record<string, UrlUse> = {
  href: 'link',
  src: 'image',
  srcset: 'image',
  poster: 'image',
  background: 'image',
};

/** Largest HTML accepted anywhere (a template, a client's edited instance): 2 MiB. */
export const MAX_HTML_BYTES = 2 * 1024 * 1024;

/** `template`: `{{ … }}` / `{% … %}` are kept, and a URL may be a lone expression. `ownOrigin`: see render/url-policy.ts. */
type CleanOptions = UrlOptions;

function cleanSrcset(value: string, options: UrlOptions): boolean {
  return value.split(',').every((candidate) => isAllowedUrl(candidate.trim().split(/\s+/)[0] ?? '', 'image', options));
}

/** Cleans CSS text (a <style> element or a style attribute): no scripts, no private or font URLs off the list. */
export function sanitizeCss(css: string, options: CleanOptions = {}): string {
  let out = css
    // Old IE/Firefox script hooks in CSS.
    .replace(/expression\s*\(/gi, 'invalid(')
    .replace(/-moz-binding\s*:/gi, 'invalid:')
    .replace(/behavior\s*:/gi, 'invalid:')
    .replace(/javascript\s*:/gi, 'invalid:');
  // @import loads a stylesheet: only a font host's.
  out = out.replace(
    /@import\s+(?:url\(\s*)?(['"]?)([^'")\s;]*)\1\s*\)?[^;]*;?/gi,
    (rule, _quote: string, url: string) => (isAllowedUrl(url, 'font', options) ? rule : ''),
  );
  // Inside @font-face every url() is a font; elsewhere an image.
  out = out.replace(/@font-face\s*\{[^}]*\}/gi, (block) => cleanUrls(block, 'font', options));
  return cleanUrls(out, 'image', options, true);
}

function cleanUrls(css: string, use: UrlUse, options: UrlOptions, skipFontFaces = false): string {
  const replace = (text: string) =>
    text.replace(/url\(\s*(['"]?)(.*?)\1\s*\)/gi, (whole, _quote: string, url: string) =>
      isAllowedUrl(url, use, options) ? whole : 'url("")',
    );
  if (!skipFontFaces) return replace(css);
  // Leaves @font-face blocks (already cleaned as fonts) as they are.
  return css
    .split(/(@font-face\s*\{[^}]*\})/i)
    .map((part, i) => (i % 2 === 1 ? part : replace(part)))
    .join('');
}

const LIQUID = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const PLACEHOLDER = /__gbl_tpl_(\d+)__/g;

/** Cleans a whole page or fragment. Keeps a leading doctype. */
export function sanitizeHtml(html: string, options: CleanOptions = {}): string {
  const template = options.template === true;
  const held: string[] = [];
  const input = template ? html.replace(LIQUID, (markup) => `__gbl_tpl_${held.push(markup) - 1}__`) : html;
  const hadDoctype = /^\s*<!doctype html/i.test(input);
  let out = sanitize(input, {
    allowedTags: TAGS,
    allowVulnerableTags: true, // <style> only (script is not in the list); its CSS is cleaned below
    allowedAttributes: {
      '*': COMMON_ATTRIBUTES,
      a: ['href', 'target', 'rel', 'name'],
      img: ['src', 'srcset', 'alt', 'loading', 'sizes'],
      source: ['srcset', 'media', 'type', 'sizes'],
      link: ['rel', 'href', 'type', 'crossorigin', 'media'],
      meta: ['charset', 'name', 'content'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan', 'scope'],
      col: ['span'],
      colgroup: ['span'],
      ol: ['start', 'type', 'reversed'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel', 'data'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'], source: ['http', 'https', 'data'], link: ['https'] },
    allowProtocolRelative: false,
    parseStyleAttributes: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      '*': (tagName, attribs) => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(attribs)) {
          const lower = name.toLowerCase();
          if (lower === 'style') kept[name] = sanitizeCss(value, options);
          else if (lower === 'srcset') {
            if (cleanSrcset(value, options)) kept[name] = value;
          } else if (URL_ATTRIBUTES[lower]) {
            const use: UrlUse = tagName === 'link' ? 'font' : (URL_ATTRIBUTES[lower] as UrlUse);
            if (isAllowedUrl(value, use, options)) kept[name] = value;
          } else kept[name] = value;
        }
        return { tagName, attribs: kept };
      },
    },
    // A <link> may only bring a font host's stylesheet; a <meta> may not refresh or redirect.
    exclusiveFilter: (frame) =>
      (frame.tag === 'link' && (frame.attribs.rel?.toLowerCase() !== 'stylesheet' || !frame.attribs.href)) ||
      (frame.tag === 'meta' && frame.attribs['http-equiv'] !== undefined),
  });
  out = out.replace(
    /(<style[^>]*>)([\s\S]*?)(<\/style>)/gi,
    (_all, open: string, css: string, close: string) => `${open}${sanitizeCss(css, options)}${close}`,
  );
  if (template) out = out.replace(PLACEHOLDER, (_all, index: string) => held[Number(index)] ?? '');
  return hadDoctype ? `<!DOCTYPE html>\n${out}` : out;
}
