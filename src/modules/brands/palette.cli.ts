// `gable admin brand palette BRAND [--set key=value …] [--unset key …]`: an operator's view and edit of a brand's
// marketing palette (decisions §19). Without changes it prints the palette the brand shows (inherited keys too).
import type { Command } from 'commander';
import { withDeps, type CommandDepsRunner, reportOperatorErrors } from '../../platform/commands.js';
import { errors } from '../../errors.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

export function registerPaletteCommand(
  admin: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const brand = admin.commands.find((command) => command.name() === 'brand') ?? admin.command('brand');
  brand
    .command('palette <brandId>')
    .description(
      "show or change a brand's marketing palette (colours, logos, address, phone) that clients and print templates read",
    )
    .option('--set <key=value>', 'set a key (repeat); `address.city=Dallas` sets a field of the address', collect, [])
    .option(
      '--unset <key>',
      "remove a key the brand sets itself (repeat); the ancestors' value shows again",
      collect,
      [],
    )
    .action(async (brandId: string, options: { set: string[]; unset: string[] }) => {
      const { changePalette, getBrandProfile } = await import('./profile.service.js');
      await reportOperatorErrors(() =>
        withCommandDeps(async (deps) => {
          const changes: Record<string, string | null> = Object.fromEntries(options.unset.map((key) => [key, null]));
          const address: Record<string, string> = {};
          for (const assignment of options.set) {
            const at = assignment.indexOf('=');
            if (at <= 0) throw errors.invalidField('set', `"${assignment}" is not key=value`);
            const [key, value] = [assignment.slice(0, at).trim(), assignment.slice(at + 1)];
            if (key.startsWith('address.')) address[key.slice('address.'.length)] = value;
            else changes[key] = value;
          }
          const record =
            options.set.length + options.unset.length === 0
              ? await getBrandProfile(deps, brandId, { parentRecords: false, parentIds: false, settings: true })
              : await changePalette(deps, brandId, changes, Object.keys(address).length > 0 ? address : undefined);
          console.log(JSON.stringify(record.settings?.marketing_palette ?? {}, null, 2));
        }),
      );
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
