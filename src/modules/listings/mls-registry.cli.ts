// `gable admin mls set|list`: the MLS registry behind a listing's `mls_info` (docs/listings.md).
import type { Command } from 'commander';
import { print, withDeps, type CommandDepsRunner, reportOperatorErrors } from '../../platform/commands.js';
import type { MlsRegistryRow } from './mls-registry.repository.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

const view = (row: MlsRegistryRow) => ({
  mls: row.mls,
  name: row.name,
  disclaimer: row.disclaimer,
  logo_url: row.logo_url,
});

export function registerMlsCommands(
  admin: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const mls = admin
    .command('mls')
    .description("MLS registry: each MLS's name, disclaimer and logo (a listing's mls_info)");

  mls
    .command('set')
    .description('create or change an MLS; only the options given change (an empty value clears disclaimer or logo)')
    .argument('<mls>', 'the MLS, as its listings name it (e.g. NTREIS)')
    .option('--name <name>', 'display name (required for a new MLS)')
    .option('--disclaimer <text>', 'disclaimer shown with its listings; {{currentYear}} is kept for clients to fill in')
    .option('--logo-url <url>', 'http(s) URL of its logo')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { name?: string; disclaimer?: string; logoUrl?: string; json?: boolean }) => {
      await reportOperatorErrors(() =>
        withCommandDeps(async (deps) => {
          const { setMls } = await import('./mls-registry.service.js');
          const row = await setMls(deps.db, name, options, deps.clock.now());
          if (options.json) return print(view(row), true);
          console.log(
            `set MLS ${row.mls} "${row.name}"${row.disclaimer ? ', with a disclaimer' : ''}${row.logo_url ? `, logo ${row.logo_url}` : ''}`,
          );
        }),
      );
    });

  mls
    .command('list')
    .description('list the MLS registry')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withCommandDeps(async (deps) => {
        const { listMls } = await import('./mls-registry.service.js');
        const rows = (await listMls(deps.db)).map(view);
        if (options.json) return print(rows, true);
        if (rows.length === 0)
          return void console.log('no MLS registered: gable admin mls set NTREIS --name "North Texas MLS"');
        for (const row of rows)
          console.log(
            `${row.mls}  ${row.name}${row.disclaimer ? '  (disclaimer)' : ''}${row.logo_url ? `  ${row.logo_url}` : ''}`,
          );
      });
    });
}
