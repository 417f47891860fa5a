// `gable admin user create|set-password`.
import type { Command } from 'commander';
import { withDeps, reportOperatorErrors } from '../../platform/commands.js';
import { errors } from '../../errors.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

interface PasswordOptions {
  password?: string;
  generatePassword?: boolean;
}

/** --password P, --generate-password, or neither (null: an account without a password). */
async function chosenPassword(options: PasswordOptions, required: boolean): Promise<string | null> {
  if (options.password !== undefined && options.generatePassword)
    throw errors.badRequest('give either --password or --generate-password, not both');
  if (options.generatePassword) return (await import('./users.admin.js')).generatePassword();
  if (options.password !== undefined) return options.password;
  if (required) throw errors.badRequest('give --password <password> or --generate-password');
  return null;
}

export function registerUserCommands(admin: Command): void {
  const user = admin.command('user').description('user accounts');

  user
    .command('create')
    .description('create a user account (add it to brands with `gable admin member add`)')
    .requiredOption('--email <email>', 'login email (unique)')
    .option('--password <password>', 'initial password (at least 8 characters); note: visible in shell history')
    .option('--generate-password', 'generate a strong password and print it once')
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--timezone <zone>', 'IANA time zone, e.g. America/Chicago', 'UTC')
    .option('--json', 'print JSON')
    .action(
      async (
        options: PasswordOptions & {
          email: string;
          firstName?: string;
          lastName?: string;
          timezone: string;
          json?: boolean;
        },
      ) => {
        await reportOperatorErrors(async () => {
          const password = await chosenPassword(options, false);
          await withDeps({}, async (deps) => {
            const { createAccount } = await import('./users.admin.js');
            const created = await createAccount(deps.db, {
              email: options.email,
              password,
              ...(options.firstName !== undefined ? { firstName: options.firstName } : {}),
              ...(options.lastName !== undefined ? { lastName: options.lastName } : {}),
              timezone: options.timezone,
            });
            // Only a generated password is printed: the operator already knows one they typed.
            const shown = options.generatePassword ? password : undefined;
            if (options.json)
              return console.log(
                JSON.stringify(
                  { ...created, has_password: password !== null, ...(shown ? { password: shown } : {}) },
                  null,
                  2,
                ),
              );
            console.log(`created user ${created.id} <${created.email}>${password === null ? ' (no password)' : ''}`);
            if (shown) console.log(`password: ${shown}`);
          });
        });
      },
    );

  user
    .command('set-password')
    .description("set a user's password (does not end their sessions)")
    .requiredOption('--user <user>', 'user id or email')
    .option('--password <password>', 'new password (at least 8 characters)')
    .option('--generate-password', 'generate a strong password and print it once')
    .option('--json', 'print JSON')
    .action(async (options: PasswordOptions & { user: string; json?: boolean }) => {
      await reportOperatorErrors(async () => {
        const password = (await chosenPassword(options, true))!;
        await withDeps({}, async (deps) => {
          const { setAccountPassword } = await import('./users.admin.js');
          const changed = await setAccountPassword(deps.db, deps.clock, options.user, password);
          const shown = options.generatePassword ? password : undefined;
          if (options.json)
            return console.log(JSON.stringify({ ...changed, ...(shown ? { password: shown } : {}) }, null, 2));
          console.log(`password set for ${changed.id} <${changed.email}>${shown ? `\npassword: ${shown}` : ''}`);
        });
      });
    });
}
