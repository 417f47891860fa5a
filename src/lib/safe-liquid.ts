// Liquid for text that users write (campaign bodies, print templates): ADR 0009 and 0012. One factory, so every
// feature gets the same guards: no file system (include, render, layout and block are refused when the template
// is parsed), objects expose only their own properties, unknown filters are errors, unknown variables render
// empty, parsing and rendering are bounded. With `escape`, every output is HTML-escaped and `raw` escapes too
// (a contact's name from a lead form must never become markup).
import { Liquid } from 'liquidjs';

const FILE_TAGS = ['include', 'render', 'layout', 'block'] as const;

export interface SafeLiquidOptions {
  /** HTML-escape every output (html bodies); off for subjects and plain text. */
  escape: boolean;
  /** Largest template source, in characters. */
  parseLimit: number;
  /** Longest render, in milliseconds. */
  renderLimit: number;
  /** Largest memory a render may allocate, in bytes (liquidjs's estimate). */
  memoryLimit: number;
}

export function safeLiquid(options: SafeLiquidOptions): Liquid {
  const engine = new Liquid({
    templates: {}, // no partials: nothing to include even if a tag slipped through
    ...(options.escape ? { outputEscape: 'escape' as const } : {}),
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    cache: false,
    relativeReference: false,
    parseLimit: options.parseLimit,
    renderLimit: options.renderLimit,
    memoryLimit: options.memoryLimit,
  });
  for (const tag of FILE_TAGS) {
    engine.registerTag(tag, {
      parse() {
        throw new Error(`{% ${tag} %} is not available: templates cannot read files`);
      },
      render() {
        return '';
      },
    });
  }
  // With outputEscape, `| raw` would be the way around it: here it is a no-op, so its output is escaped too.
  if (options.escape) engine.registerFilter('raw', (value: unknown) => value);
  return engine;
}
