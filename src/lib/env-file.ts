// A `.env` file: one `NAME=value` per line, as docker compose and most tools write them (docs/configuration.md).
// Node's own parser (process.loadEnvFile) skips a line it cannot read without a word; an operator who mistyped a
// line should hear which one before anything starts, so this parser refuses it with its number.

export class EnvFileError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'EnvFileError';
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOUBLE_QUOTED_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', $: '$' };

/**
 * `NAME=value`, optionally after `export `; blank lines and `#` comments are skipped. A value may be unquoted
 * (trimmed; ` #` starts a comment), 'single-quoted' (as written) or "double-quoted" (`\n`, `\t`, `\"`, `\\`
 * escapes). A quoted value ends on its own line: multi-line values are refused, as is anything after the quote
 * but a comment.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const number = index + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const assignment = line.replace(/^export\s+/, '');
    const equals = assignment.indexOf('=');
    if (equals < 0) throw new EnvFileError(number, 'expected NAME=value');
    const name = assignment.slice(0, equals).trim();
    if (!NAME.test(name)) throw new EnvFileError(number, `"${name}" is not a variable name (letters, digits, _)`);
    values[name] = parseValue(assignment.slice(equals + 1).trim(), number);
  });
  return values;
}

function parseValue(text: string, line: number): string {
  const quote = text[0];
  if (quote !== '"' && quote !== "'") {
    const comment = text.search(/\s#/);
    return (comment >= 0 ? text.slice(0, comment) : text).trim();
  }
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === quote) {
      const rest = text.slice(i + 1).trim();
      if (rest !== '' && !rest.startsWith('#'))
        throw new EnvFileError(line, `unexpected text after the closing ${quote}`);
      return value;
    }
    if (quote === '"' && char === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      value += DOUBLE_QUOTED_ESCAPES[next] ?? `\\${next}`;
      continue;
    }
    value += char;
  }
  throw new EnvFileError(line, `the ${quote} is not closed on this line (values of several lines are not read)`);
}
