#!/usr/bin/env node
// Runs a TypeScript entry point (benchmarks, scripts): `node bin/run-ts.js path/to/file.ts [args]`.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const [entry] = process.argv.splice(2, 1);
if (!entry) {
  console.error('usage: run-ts <file.ts> [args]');
  process.exit(2);
}
await import(pathToFileURL(resolve(entry)).href);
