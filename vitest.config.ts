import { defineConfig } from 'vitest/config';

// Two groups: every test file, two at a time; then the files that measure the server's responsiveness
// (`*.alone.test.ts`), one at a time with nothing else running, so another file's work is not in their figures.
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/browser/**', 'node_modules/**', '**/*.alone.test.ts', '**/*.docs.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ['src/**/*.alone.test.ts', 'test/**/*.alone.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
