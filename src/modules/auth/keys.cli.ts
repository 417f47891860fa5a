// `gable admin keys rotate`: a new pair of id_token signing keys (docs/openid-connect.md "Signing keys").
import type { Command } from 'commander';
import {
  print,
  reportOperatorErrors,
  runHereOrOnServer,
  withDeps,
  type CommandDepsRunner,
} from '../../platform/commands.js';
import type { KeyRotation } from './signing-keys.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

export function registerSigningKeyCommands(
  admin: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const keys = admin.command('keys').description('the keys that sign OpenID Connect id_tokens');

  keys
    .command('rotate')
    .description(
      'add a new RS256 and ES256 key: published in the JWKS now, signing in an hour; keys whose id_tokens have all expired are dropped',
    )
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await reportOperatorErrors(async () => {
        const { rotateKeysAsOperator } = await import('./signing-keys.operator.js');
        const rotation = await runHereOrOnServer(withCommandDeps, rotateKeysAsOperator, 'keys.rotate', {});
        if (options.json) print(rotation, true);
        else console.log(describeRotation(rotation));
      });
    });
}

function describeRotation(rotation: KeyRotation): string {
  return [
    ...rotation.added.map((key) => `added    ${key.alg}  ${key.kid}  signs from ${key.signs_from}`),
    ...rotation.dropped.map((key) => `dropped  ${key.alg}  ${key.kid}`),
    'published now:',
    ...rotation.published.map((key) => `  ${key.alg}  ${key.kid}  signs from ${key.signs_from}`),
  ].join('\n');
}
