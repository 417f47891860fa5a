// The campaign template language (docs/adr/0009): Liquid, `{{ contact.first_name }}`, through the shared safe
// engine (lib/safe-liquid.ts): no file access, own properties only, bounded work, unknown variables render empty,
// and in html every inserted value is HTML-escaped.
import type { Template } from 'liquidjs';
import { compile as compileHtmlToText } from 'html-to-text';
import { safeLiquid } from '../../lib/safe-liquid.js';

// An html body may be 2 MiB (emails.input.ts); a render may take 2 s and 16 MB.
const engine = (escape: boolean) =>
  safeLiquid({ escape, parseLimit: 4 * 1024 * 1024, renderLimit: 2000, memoryLimit: 16 * 1024 * 1024 });

const htmlEngine = engine(true);
const plainEngine = engine(false);

export type TemplateKind = 'html' | 'plain';

/** Parses a template, or answers why it does not parse (for a 400 naming the field). */
export function templateProblem(source: string, kind: TemplateKind): string | null {
  try {
    (kind === 'html' ? htmlEngine : plainEngine).parse(source);
    return null;
  } catch (error) {
    return `is not a valid template: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
  }
}

export interface CompiledTemplate {
  render(data: object): Promise<string>;
}

export function compile(source: string, kind: TemplateKind): CompiledTemplate {
  const liquid = kind === 'html' ? htmlEngine : plainEngine;
  const templates: Template[] = liquid.parse(source);
  return { render: async (data) => String(await liquid.render(templates, data)) };
}

/** The text/plain part of an html body. */
/**
 * Compiled once: `convert(html, options)` builds its selector tree on every call, which was most of the cost of a
 * campaign's text parts (~0.35 ms an email, in the server's only thread on the embedded database).
 */
const htmlToText = compileHtmlToText({ wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] });

export function textOf(html: string): string {
  return htmlToText(html);
}

/** A rendered subject is one header line: line breaks that variables brought in become spaces. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}
