// The resolve hook of record-imports.js: it runs on the loader's own thread, so it writes each URL straight to the
// file (synchronously, so nothing is lost when the process exits at once, as `--help` does).
import { appendFileSync } from 'node:fs';

let file = '';

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
