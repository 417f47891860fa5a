// Is dist/ the compiled form of src/? The build (scripts/build.js) writes dist/.build-stamp holding the time it
// started; the build is stale when a source file changed after that. Cheap enough to run on every `gable` start
// (~460 stat calls, about 10 ms): it reads directory listings and mtimes, never a file's content.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SRC = join(ROOT, 'src');
export const DIST = join(ROOT, 'dist');
export const STAMP = join(DIST, '.build-stamp');

/**
 * Files of src/ that never reach dist/ (tests and their helpers): editing them leaves the build current. The same
 * files as the `exclude` of tsconfig.build.json: change both together.
 */
export function isTestOnly(name) {
  return /\.(test|test-support)\.ts$/.test(name);
}

/** The newest modification time (ms) of a file of src/ that the build uses. */
export function newestSourceMtime(dir = SRC) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (!isTestOnly(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** null when dist/ is current (or there is no src/ to compare with, as in an installed package), else why not. */
export function buildProblem() {
  let builtAt;
  try {
    builtAt = Number(readFileSync(STAMP, 'utf8'));
  } catch {
    return 'gable: no compiled build in dist/: run `npm run build` (npm install runs it).';
  }
  let sources;
  try {
    sources = newestSourceMtime();
  } catch {
    return null;
  }
  return sources > builtAt
    ? 'gable: dist/ is older than src/: run `npm run build` (or `npm run dev` while editing).'
    : null;
}
