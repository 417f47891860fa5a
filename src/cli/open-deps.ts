// How a command opens the server's dependencies (the composition's half of platform/commands.ts): configuration,
// database (schema current), job queue ready to enqueue. The database, the queue and the services load when a
// command opens them, not when `gable --help` reads this file. main.ts provides it to withDeps.
import type { Deps } from '../platform/deps.js';
import { readConfig, type CommandContextOptions } from '../platform/commands.js';
import { assertUnlocked, dataDirLockFile } from '../db/lock.js';

export async function openDeps<T>(options: CommandContextOptions, run: (deps: Deps) => Promise<T>): Promise<T> {
  const config = readConfig();
  // Beside a running embedded server the command cannot open the database: say so before loading the server's
  // modules (most of a second), not after. createDeps still takes the lock itself.
  if (config.databaseUrl === null) assertUnlocked(dataDirLockFile(config.dataDir));
  const [{ closeDeps, createDeps, startJobs }, { prepareSchemaForCommand }] = await Promise.all([
    import('../deps.js'),
    import('../db/migrator.js'),
  ]);
  const deps = await createDeps(config, { workers: options.workers ?? false });
  try {
    if (options.migrate ?? true) await prepareSchemaForCommand(deps.db, config.embedded);
    if (options.jobs) await startJobs(deps);
    return await run(deps);
  } finally {
    await closeDeps(deps);
  }
}
