// `gable seed boundaries` and `gable import boundaries FILE --type TYPE …`.
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { withDeps } from '../../platform/commands.js';
import { BOUNDARY_TYPES, type BoundaryType } from './boundaries.types.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

const MAX_PROBLEMS_SHOWN = 50;

export function registerBoundaryCommands(seed: Command, importCmd: Command): void {
  seed
    .command('boundaries')
    .description(
      'load the shipped boundaries: Natural Earth countries, US Census states and counties with their 2019 populations (idempotent)',
    )
    .action(async () => {
      const [{ progressReporter }, { seedShippedBoundaries }] = await Promise.all([
        import('../../lib/progress.js'),
        import('./boundaries.loader.js'),
      ]);
      await withDeps({}, async (deps) => {
        const progress = progressReporter('boundaries');
        const { boundaries, populationsSet } = await seedShippedBoundaries(deps.db, {}, progress.update);
        progress.stop();
        console.log(
          `boundaries: ${boundaries} loaded; population (Census 2019 estimates) set on ${populationsSet} (figures already loaded are kept)`,
        );
      });
    });

  importCmd
    .command('boundaries')
    .description(
      'import a GeoJSON FeatureCollection of Polygon / MultiPolygon features (all or nothing; idempotent by id)',
    )
    .argument('<file>', 'GeoJSON file')
    .addOption(
      new Option('--type <type>', 'boundary type of every feature').choices(BOUNDARY_TYPES).makeOptionMandatory(),
    )
    .option('--title-field <field>', 'property holding the title (default: name, NAME, wof:name or title)')
    .option('--id-field <field>', "property holding the stable id (default: the feature's id)")
    .option('--country <cc>', 'ISO country code of every feature')
    .option('--state <name>', 'state name of every feature')
    .action(
      async (
        file: string,
        options: { type: BoundaryType; titleField?: string; idField?: string; country?: string; state?: string },
      ) => {
        const [{ progressReporter }, { parseBoundaryFile }, { loadBoundaries }] = await Promise.all([
          import('../../lib/progress.js'),
          import('./boundaries.import.js'),
          import('./boundaries.loader.js'),
        ]);
        let json: unknown;
        try {
          json = JSON.parse(readFileSync(file, 'utf8'));
        } catch (error) {
          console.error(`${file}: ${(error as Error).message}`);
          process.exitCode = 1;
          return;
        }
        const { boundaries, problems } = parseBoundaryFile(json, options);
        if (problems.length) {
          for (const p of problems.slice(0, MAX_PROBLEMS_SHOWN))
            console.error(p.index < 0 ? `${file}: ${p.reason}` : `feature ${p.index}: ${p.reason}`);
          if (problems.length > MAX_PROBLEMS_SHOWN) console.error(`… and ${problems.length - MAX_PROBLEMS_SHOWN} more`);
          console.error(`${problems.length} invalid feature(s): nothing imported`);
          process.exitCode = 1;
          return;
        }
        await withDeps({}, async (deps) => {
          const progress = progressReporter(file);
          const written = await loadBoundaries(deps.db, boundaries, { onProgress: progress.update });
          progress.stop();
          console.log(`${file}: ${written} boundaries imported`);
        });
      },
    );

  importCmd
    .command('populations')
    .description(
      "set the population of the shipped US states and counties from the Census Bureau's county estimates CSV " +
        '(co-est<vintage>-alldata.csv) or any CSV with fips and population columns (all or nothing; idempotent)',
    )
    .argument('<file>', 'CSV file')
    .option('--column <name>', 'column holding the population (default: the newest POPESTIMATE<year>, else population)')
    .action(async (file: string, options: { column?: string }) => {
      const { applyPopulations, parsePopulationCsv } = await import('./boundaries.populations.js');
      let text: string;
      try {
        text = readFileSync(file, 'latin1'); // the Census files are Latin-1; only digits are read
      } catch (error) {
        console.error(`${file}: ${(error as Error).message}`);
        process.exitCode = 1;
        return;
      }
      const { rows, problems, column } = parsePopulationCsv(text, options);
      if (problems.length) {
        for (const problem of problems.slice(0, MAX_PROBLEMS_SHOWN)) console.error(`${file}: ${problem}`);
        if (problems.length > MAX_PROBLEMS_SHOWN) console.error(`… and ${problems.length - MAX_PROBLEMS_SHOWN} more`);
        console.error(`${problems.length} problem(s): nothing imported`);
        process.exitCode = 1;
        return;
      }
      await withDeps({}, async (deps) => {
        const { updated, unmatched } = await applyPopulations(deps.db, rows);
        console.log(`${file}: population (${column}) set on ${updated} boundaries`);
        if (unmatched.length)
          console.log(
            `${unmatched.length} FIPS code(s) with no boundary (e.g. ${unmatched.slice(0, 5).join(', ')}); run gable seed boundaries first if none matched`,
          );
      });
    });
}
