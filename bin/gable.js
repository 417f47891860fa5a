#!/usr/bin/env node
// The `gable` command: the compiled server in dist/ (`npm run build`, which `npm install` runs). tsx is for
// development (`npm run dev`) and tests only. A missing build, or one older than src/, stops here with one line
// rather than running code that is not the code in src/.
import { buildProblem } from '../scripts/build-state.js';

const problem = buildProblem();
if (problem) {
  console.error(problem);
  process.exit(2);
}
// Stack traces name the TypeScript files and lines (dist/ carries source maps), as they did under tsx.
process.setSourceMapsEnabled(true);
await import('../dist/main.js');
