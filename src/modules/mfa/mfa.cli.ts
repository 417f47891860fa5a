// `gable admin user mfa-reset`: the operator's MFA reset, for a user who lost the authenticator and the recovery
// codes (docs/oauth.md "Recovery codes and resets"). It joins the `admin user` group the users module registers.
import type { Command } from 'commander';
import { print, reportOperatorErrors, withDeps, type CommandDepsRunner } from '../../platform/commands.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

export function registerMfaCommands(
  admin: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const user =
    admin.commands.find((command) => command.name() === 'user') ?? admin.command('user').description('user accounts');

  user
    .command('mfa-reset')
    .description(
      "clear a user's MFA secret and recovery codes and end their logins (recorded as a Security/UserMfaReset event)",
    )
    .requiredOption('--user <user>', 'user id or email')
    .option('--json', 'print JSON')
    .action(async (options: { user: string; json?: boolean }) => {
      await reportOperatorErrors(async () => {
        await withCommandDeps(async (deps) => {
          const { operatorResetMfa } = await import('./mfa-reset.service.js');
          const reset = await operatorResetMfa(deps, options.user);
          if (options.json) print({ ...reset, mfa_enabled: false }, true);
          else console.log(`MFA reset for ${reset.id} <${reset.email}>`);
        });
      });
    });
}
