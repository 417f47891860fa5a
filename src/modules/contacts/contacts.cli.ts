// `gable import contacts FILE.csv --brand BRAND [--map column=field …]`.
import type { Command } from 'commander';
import { withDeps } from '../../platform/commands.js';
import { AppError } from '../../errors.js';
import { isUuid } from '../../lib/uuid.js';
import { CSV_TARGETS } from './contacts.csv-targets.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

const MAX_PROBLEMS_SHOWN = 50;
const collect = (value: string, previous: string[]) => [...previous, value];

export function registerContactCommands(importCmd: Command): void {
  importCmd
    .command('contacts')
    .description(
      'import contacts from a CSV file (Google, Outlook or any sheet with a header row); any bad row is reported by line and nothing is imported',
    )
    .argument('<file>', 'CSV file with a header row')
    .requiredOption('--brand <brandId>', 'brand that owns the contacts (uuid)')
    .option(
      '--map <column=field>',
      `map a column to a field (repeatable); fields: ${CSV_TARGETS.join(', ')}`,
      collect,
      [],
    )
    .action(async (file: string, options: { brand: string; map: string[] }) => {
      if (!isUuid(options.brand)) {
        console.error(`--brand ${options.brand}: expected a brand id (uuid)`);
        process.exitCode = 2;
        return;
      }
      const { parseContactsCsv, parseMappings } = await import('./contacts.csv.js');
      let mappings;
      try {
        mappings = parseMappings(options.map);
      } catch (error) {
        console.error((error as Error).message);
        process.exitCode = 2;
        return;
      }
      // Read and check the whole file before opening the database: a bad file changes nothing.
      const parsed = await parseContactsCsv(file, mappings);
      const used = parsed.columns.filter((c) => c.field && c.field !== 'ignore');
      console.log(
        `${file}: columns ${used.map((c) => `${c.column} → ${c.field}`).join(', ') || '(none recognised: use --map)'}`,
      );
      if (parsed.problems.length > 0) {
        for (const problem of parsed.problems.slice(0, MAX_PROBLEMS_SHOWN)) {
          console.error(
            `line ${problem.line}: ${Object.entries(problem.errors)
              .map(([field, messages]) => `${field} ${messages.join('; ')}`)
              .join(', ')}`,
          );
        }
        if (parsed.problems.length > MAX_PROBLEMS_SHOWN)
          console.error(`… and ${parsed.problems.length - MAX_PROBLEMS_SHOWN} more`);
        console.error(`${parsed.problems.length} bad row(s): nothing imported`);
        process.exitCode = 1;
        return;
      }
      const [{ progressReporter }, { importContacts }] = await Promise.all([
        import('../../lib/progress.js'),
        import('./contacts.service.js'),
      ]);
      await withDeps({}, async (deps) => {
        const started = performance.now();
        const progress = progressReporter(file);
        let created: number;
        try {
          created = await importContacts(
            deps,
            options.brand.toLowerCase(),
            parsed.contacts.map((c) => c.fields),
            progress.update,
          );
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          progress.stop();
          console.error(`--brand ${options.brand}: ${error.message}`);
          process.exitCode = 1;
          return;
        }
        progress.stop();
        const seconds = (performance.now() - started) / 1000;
        console.log(`${file}: ${created} contacts imported in ${seconds.toFixed(1)} s`);
      });
    });
}
