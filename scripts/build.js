#!/usr/bin/env node
// `npm run build` (and `npm install`, through `prepare`; the tests' global setup when src/ changed): src/ → dist/ with tsc (tsconfig.build.json, incremental),
// then the files the code reads beside itself (print templates, census data), then the stamp that says when.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { buildProblem, DIST, ROOT, SRC, STAMP } from './build-state.js';

// `--if-stale` (the tests' global setup): nothing to do when dist/ is current.
if (process.argv.includes('--if-stale') && buildProblem() === null) process.exit(0);

// The time the build starts, not ends: a source saved while tsc runs then counts as newer than the build.
const startedAt = Date.now();
rmSync(STAMP, { force: true });

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // An install without the dev dependencies (npm ci --omit=dev) has no compiler: say so in one line.
  console.error('npm run build needs the dev dependencies (typescript): run npm install without --omit=dev.');
  process.exit(1);
}
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

/** Every file of a tree, as paths relative to its root. */
function filesUnder(root, dir = root) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, join(dir, entry.name)) : [relative(root, join(dir, entry.name))],
  );
}

// Assets: whatever src/ holds that is not TypeScript is read at run time through import.meta.url.
for (const file of filesUnder(SRC).filter((f) => !f.endsWith('.ts'))) {
  mkdirSync(dirname(join(DIST, file)), { recursive: true });
  copyFileSync(join(SRC, file), join(DIST, file));
}

// Compiled files whose source is gone (a removed or renamed module) would still be found by directory readers
// such as the migrator: remove them.
for (const file of filesUnder(DIST)) {
  const source = file.replace(/\.js(\.map)?$/, '.ts');
  if (source !== file && !existsSync(join(SRC, source))) rmSync(join(DIST, file));
}

writeFileSync(STAMP, String(startedAt));
