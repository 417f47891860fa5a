// Writes docs/configuration.md's table of variables from src/config-variables.ts (`npm run docs:config`).
// The table sits between two marker comments; the prose around it is written by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { withVariablesTable } from '../src/config-variables.js';

const file = 'docs/configuration.md';
const before = readFileSync(file, 'utf8');
const after = withVariablesTable(before);
if (after === before) console.log(`${file} is up to date`);
else {
  writeFileSync(file, after);
  console.log(`${file}: table of variables rewritten`);
}
