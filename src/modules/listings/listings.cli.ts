// `gable seed listings` and `gable import listings FILE`.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { withDeps } from '../../platform/commands.js';
import { DEFAULT_SEED_MLS } from './listings.seed-defaults.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

const MAX_PROBLEMS_SHOWN = 50;

const positiveInteger = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer');
  return number;
};

export function registerListingCommands(seed: Command, importCmd: Command): void {
  seed
    .command('listings')
    .description(
      'write synthetic listings (deterministic for a seed; re-running with the same options changes nothing)',
    )
    .requiredOption('--count <n>', 'number of listings', positiveInteger)
    .option(
      '--within <boundary>',
      'boundary id or title (from `gable seed boundaries` / `import boundaries`); default: built-in US metro areas',
    )
    .option('--mls <name>', 'MLS name of the listings and agents', DEFAULT_SEED_MLS)
    .option('--seed <n>', 'PRNG seed', positiveInteger, 1)
    .action(async (options: { count: number; within?: string; mls: string; seed: number }) => {
      const [{ progressReporter }, { seedListings }] = await Promise.all([
        import('../../lib/progress.js'),
        import('./listings.seed.js'),
      ]);
      await withDeps({}, async (deps) => {
        const progress = progressReporter('listings');
        const outcome = await seedListings(deps, {
          ...options,
          concurrency: deps.database.embedded ? 1 : 2,
          onProgress: progress.update,
        });
        progress.stop();
        const rate = Math.round(options.count / outcome.seconds);
        console.log(
          `listings (${outcome.mls}): ${outcome.created} created, ${outcome.updated} updated, ${outcome.unchanged} unchanged in ${outcome.seconds.toFixed(1)} s (${rate}/s); ${outcome.agents} agents, ${outcome.linkedUsers} users linked to an agent`,
        );
      });
    });

  importCmd
    .command('listings')
    .description(
      'import listing records from an NDJSON file (one record per line, decisions §5 shape); bad lines are reported and skipped',
    )
    .argument('<file>', 'NDJSON file')
    .option('--mls <name>', 'MLS of every record (otherwise each record carries `mls`)')
    .option('--batch-size <n>', 'records per transaction', positiveInteger, 1000)
    .action(async (file: string, options: { mls?: string; batchSize: number }) => {
      // A file that cannot be read is said before the database opens (an embedded first open takes seconds).
      await access(file, constants.R_OK);
      const [{ progressReporter }, { importListingsFile }] = await Promise.all([
        import('../../lib/progress.js'),
        import('./listings.import.js'),
      ]);
      await withDeps({ jobs: true }, async (deps) => {
        const progress = progressReporter(file);
        let shown = 0;
        const outcome = await importListingsFile(deps, file, {
          ...options,
          onProgress: progress.update,
          onProblem: (problem) => {
            if (shown++ >= MAX_PROBLEMS_SHOWN) return;
            const fields = Object.entries(problem.errors)
              .map(([field, messages]) => `${field} ${messages.join('; ')}`)
              .join(', ');
            console.error(`line ${problem.line}${problem.mls_number ? ` (${problem.mls_number})` : ''}: ${fields}`);
          },
        });
        progress.stop();
        if (outcome.failed > MAX_PROBLEMS_SHOWN)
          console.error(`… and ${outcome.failed - MAX_PROBLEMS_SHOWN} more bad lines`);
        console.log(
          `${file}: ${outcome.created} created, ${outcome.updated} updated, ${outcome.unchanged} unchanged, ${outcome.failed} bad lines, ${outcome.events} events in ${outcome.seconds.toFixed(1)} s`,
        );
        if (outcome.failed > 0) process.exitCode = 1;
      });
    });
}
