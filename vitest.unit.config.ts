import { defineConfig } from 'vitest/config';

// The fast tier (`npm run test:unit`): pure code — parsers, schedules, time zones, search compilation, crypto,
// template checks — with no database and no server. No global setup, so a unit test that reaches for the
// database fails here at once. `npm test` runs these files too (vitest.config.ts includes every *.test.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts'],
    pool: 'forks',
    reporters: ['default'],
  },
});
