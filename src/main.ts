// The `gable` CLI: serve, worker, migrate, seed, import, admin. This file and the register functions it calls are
// the command table only: each command loads the code it runs (the server, the queue, the services) with
// import() when it runs, so `gable --help` and a mistyped flag answer at once.
import { Command, CommanderError } from 'commander';
import { openDeps } from './cli/open-deps.js';
import { EXIT_OPERATOR_ERROR, operatorErrorLine } from './cli/errors.js';
import { ConfigError, loadConfig, withEmbeddedDemoDefaults } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { runAsWork } from './lib/work-context.js';
import { OperatorChannelUnavailableError } from './platform/operator-channel.js';
import { provideDepsOpener, readConfig, withDeps } from './platform/commands.js';
import { registerBrandCommands } from './modules/brands/brands.cli.js';
import { registerUserCommands } from './modules/users/users.cli.js';
import { registerMfaCommands } from './modules/mfa/mfa.cli.js';
import { registerDemoSeedCommand } from './modules/demo/demo-seed.cli.js';
import { registerHostnameCommands } from './modules/brands/hostnames.cli.js';
import { registerPaletteCommand } from './modules/brands/palette.cli.js';
import { registerClientCommands } from './modules/auth/auth.cli.js';
import { registerSigningKeyCommands } from './modules/auth/keys.cli.js';
import { registerBoundaryCommands } from './modules/boundaries/boundaries.cli.js';
import { registerListingCommands } from './modules/listings/listings.cli.js';
import { registerContactCommands } from './modules/contacts/contacts.cli.js';
import { registerTemplateCommands } from './modules/templates/templates.cli.js';
import { registerMlsCommands } from './modules/listings/mls-registry.cli.js';
import { registerMailCommands } from './mail/mail.cli.js';
import { registerNotifyCommand } from './modules/notifications/notifications.cli.js';
import { registerAlertCommands } from './modules/saved-searches/alerts.cli.js';
import { registerDoctorCommand } from './cli/doctor.js';
import { registerSecretsCommands } from './cli/secrets.js';

// The features' commands open the server's dependencies through platform/commands.ts; this is how.
provideDepsOpener(openDeps);

const program = new Command()
  .name('gable')
  .description('Gable: the real-estate platform API server')
  .option('--verbose', 'print the stack trace of an error (anywhere on the command line)')
  .showHelpAfterError()
  // A bad flag or argument throws (CommanderError) instead of exiting 1: it exits 2 below, as other input does.
  .exitOverride();

program
  .command('serve')
  .description(
    'serve the HTTP API and the partner authorization pages (and run job workers in-process unless WORKERS_IN_PROCESS=false)',
  )
  .action(async () => {
    const config = withEmbeddedDemoDefaults(readConfig());
    const [{ createDeps, startJobs }, { migrateAtStart }, { prepareEmbedded }, { serve }] = await Promise.all([
      import('./deps.js'),
      import('./db/migrator.js'),
      import('./bootstrap.js'),
      import('./server.js'),
    ]);
    const deps = await createDeps(config, { workers: config.workersInProcess });
    await serve(deps, async () => {
      await migrateAtStart(deps.db, deps.log);
      await startJobs(deps);
      await prepareEmbedded(deps);
    });
  });

program
  .command('worker')
  .description('run job workers only (run several beside the API processes, all on one PostgreSQL)')
  .action(async () => {
    const config = readConfig();
    if (config.embedded) {
      console.error('gable worker needs DATABASE_URL: in embedded mode `gable serve` runs the workers itself.');
      process.exit(2);
    }
    const [{ closeDeps, createDeps, startJobs }, { migrateAtStart }, { msUntil, onShutdown }] = await Promise.all([
      import('./deps.js'),
      import('./db/migrator.js'),
      import('./platform/shutdown.js'),
    ]);
    const deps = await createDeps(config, { workers: true });
    // Before the first job can start: a signal from then on is a graceful one. closeDeps stops the queue first
    // (no more fetches; running jobs finish until the deadline, the rest are released to another worker at
    // once), then the mail pool, the renderer and the database.
    onShutdown(deps.log, config.shutdownTimeoutSeconds, (deadline) => closeDeps(deps, msUntil(deadline)));
    await migrateAtStart(deps.db, deps.log);
    await startJobs(deps);
    deps.log.info('worker started');
  });

program
  .command('migrate')
  .description('apply database migrations')
  .action(async () => {
    const { aheadWarning, migrateToLatest } = await import('./db/migrator.js');
    await withDeps({ migrate: false }, async (deps) => {
      const { applied, ahead } = await migrateToLatest(deps.db);
      if (ahead.length) console.log(aheadWarning(ahead));
      else console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    });
  });
export const seedCommand = program.command('seed').description('load demo or reference data');
export const importCommand = program.command('import').description('import data files');
export const adminCommand = program
  .command('admin')
  .description('operator commands: brands, users, memberships, OAuth clients');

// Feature commands register themselves under seed / import / admin.
// (each module adds one line here)
registerBrandCommands(adminCommand);
registerUserCommands(adminCommand);
registerMfaCommands(adminCommand);
registerDemoSeedCommand(seedCommand);
registerHostnameCommands(adminCommand);
registerPaletteCommand(adminCommand);
registerClientCommands(adminCommand);
registerSigningKeyCommands(adminCommand);
registerBoundaryCommands(seedCommand, importCommand);
registerListingCommands(seedCommand, importCommand);
registerContactCommands(importCommand);
registerTemplateCommands(seedCommand);
registerMlsCommands(adminCommand);
registerMailCommands(program);
registerNotifyCommand(program);
registerAlertCommands(program);
registerDoctorCommand(program);
registerSecretsCommands(program);

/** The command's words (`seed demo`, `admin client`), as the work its statements belong to (slow-statement reports). */
const commandName =
  process.argv
    .slice(2)
    .filter((word) => !word.startsWith('-'))
    .slice(0, 2)
    .join(' ') || 'help';

const verbose = process.argv.includes('--verbose');
const argv = process.argv.filter((word) => word !== '--verbose');

/** The configured database, to name it in an error; null when the configuration itself is what failed. */
function databaseUrl(): string | null {
  try {
    return loadConfig().databaseUrl;
  } catch {
    return null;
  }
}

try {
  await runAsWork({ kind: 'command', name: commandName }, () => program.parseAsync(argv));
} catch (error) {
  // commander has printed the message (and the usage) already; --help and --version end here too, with 0.
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : EXIT_OPERATOR_ERROR);
  // Operator mistakes (a locked data directory, a missing file, an unreachable database) get their message, not a
  // stack trace, unless --verbose asks for it. Anything else is a bug: its stack trace.
  const refused =
    error instanceof DataDirLockedError ||
    error instanceof OperatorChannelUnavailableError ||
    error instanceof ConfigError;
  const line = refused ? error.message : operatorErrorLine(error, databaseUrl());
  if (line === null) throw error;
  if (verbose) console.error(error);
  console.error(line);
  process.exit(refused ? 1 : EXIT_OPERATOR_ERROR);
}
