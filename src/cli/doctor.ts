// `gable doctor`: checks the configuration and the parts it names, one row per feature (platform/feature-status.ts).
// Exit status 1 when a row is broken, 0 otherwise (off is a choice, not a fault). Beside a running embedded server,
// which holds the database, the database row says so and the other rows are checked from here all the same.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { readConfig } from '../platform/commands.js';
import { withEmbeddedDemoDefaults } from '../config.js';
import type { FileStore } from '../files/store.js';

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'check the configuration and each part it names (database, mail, file store, browser, push, Microsoft 365, network rules, addresses): ready, off or broken, and what to set; exits 1 when something is broken',
    )
    .option('--json', 'print the rows as JSON')
    .action(async (options: { json?: boolean }) => {
      // What `gable serve` would run with, the embedded demo's own defaults included.
      const config = withEmbeddedDemoDefaults(readConfig());
      const [
        { openDatabase },
        { DataDirLockedError },
        { featureStatus, formatStatus, withinLimit },
        { S3Store },
        { LocalDiskStore },
        { SEALED_COLUMNS },
      ] = await Promise.all([
        import('../db/database.js'),
        import('../db/lock.js'),
        import('../platform/feature-status.js'),
        import('../files/s3-store.js'),
        import('../files/store.js'),
        import('./sealed-columns.js'),
      ]);
      const { Renderer } = await import('../render/renderer.js');

      let database: Awaited<ReturnType<typeof openDatabase>> | null = null;
      let openProblem: string | null = null;
      const notCreatedYet = config.embedded && !existsSync(join(config.dataDir, 'pgdata'));
      if (!notCreatedYet) {
        try {
          // An address that never answers would hang the open: the same limit as every check.
          database = await withinLimit(
            openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 }),
            'the database',
          );
        } catch (error) {
          if (!(error instanceof DataDirLockedError))
            openProblem = error instanceof Error ? error.message : String(error);
        }
      }
      const files: FileStore = config.s3 ? new S3Store(config.s3) : new LocalDiskStore(join(config.dataDir, 'files'));
      const renderer = config.chromiumPath
        ? new Renderer({
            executablePath: config.chromiumPath,
            timeoutMs: config.renderTimeoutMs,
            ownOrigin: config.baseUrl,
            // Only launched here, never asked to render a page.
            fetchOwn: () => Promise.reject(new Error('the doctor renders no page')),
          })
        : null;
      try {
        let rows = await featureStatus({
          config,
          db: database?.db ?? null,
          files,
          renderer,
          sealed: SEALED_COLUMNS,
        });
        if (notCreatedYet || openProblem)
          rows = rows.map((row) =>
            row.feature !== 'database'
              ? row
              : notCreatedYet
                ? {
                    feature: 'database',
                    state: 'ready',
                    detail: `embedded, not created yet: gable serve (npm start) creates it in ${config.dataDir}`,
                  }
                : { feature: 'database', state: 'broken', detail: `${openProblem} (check DATABASE_URL)` },
          );
        console.log(options.json ? JSON.stringify(rows, null, 2) : formatStatus(rows));
        process.exitCode = rows.some((row) => row.state === 'broken') ? 1 : 0;
      } finally {
        await renderer?.close();
        files.close?.();
        await database?.close();
      }
    });
}
