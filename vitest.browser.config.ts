// The browser suite (`npm run test:browser`): the partner authorization pages driven by Debian's Chromium
// through playwright-core, against the real app listening on a loopback port.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // One browser at a time: the machines have two cores.
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
