import { defineConfig } from 'vitest/config';

// `npm run test:docs`: the marked walk-throughs of README.md and docs/ run against a real `npm start` (embedded),
// one after another (test/docs/run-walkthroughs.docs.test.ts). The build step of the main suite's global setup
// comes first, so the server is the compiled code of this checkout.
export default defineConfig({
  test: {
    include: ['test/docs/**/*.docs.test.ts'],
    globalSetup: ['test/docs/build.ts'],
    pool: 'forks',
    maxWorkers: 1,
    reporters: ['default'],
  },
});
