// `gable admin brand set-hosts BRAND_ID HOST…` and `gable admin brand hosts BRAND_ID`: white-label host names.
import type { Command } from 'commander';
import { print, withDeps } from '../../platform/commands.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

/** Adds the host-name commands under `admin brand`, creating that group unless another module already did. */
export function registerHostnameCommands(admin: Command): void {
  const brand =
    admin.commands.find((command) => command.name() === 'brand') ??
    admin.command('brand').description('brands: hierarchy, members, white-label host names');

  brand
    .command('set-hosts')
    .description('replace the host names on which the partner authorization pages show this brand (white label)')
    .argument('<brandId>', 'brand id (uuid)')
    .argument('<hosts...>', 'host names, e.g. auth.acme-realty.com (no scheme, no port)')
    .option('--json', 'print JSON')
    .action(async (brandId: string, hosts: string[], options: { json?: boolean }) => {
      const { setBrandHostnames } = await import('./hostnames.service.js');
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const hostnames = await setBrandHostnames(deps.db, brandId, hosts);
          print(
            options.json ? { brand: brandId, hostnames } : `brand ${brandId} hosts: ${hostnames.join(', ')}`,
            Boolean(options.json),
          );
        }),
      );
    });

  brand
    .command('hosts')
    .description('list the white-label host names of a brand')
    .argument('<brandId>', 'brand id (uuid)')
    .option('--json', 'print JSON')
    .action(async (brandId: string, options: { json?: boolean }) => {
      const { brandHostnames } = await import('./hostnames.service.js');
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const hostnames = await brandHostnames(deps.db, brandId);
          if (options.json) print({ brand: brandId, hostnames }, true);
          else console.log(hostnames.length > 0 ? hostnames.join('\n') : `brand ${brandId} has no host names`);
        }),
      );
    });
}

/** An operator mistake (bad host, unknown brand, host taken) prints its message and exits 1, not a stack trace. */
async function reportOperatorErrors(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    // Loaded already: the action that threw imported it.
    const { HostnameError } = await import('./hostnames.service.js');
    if (!(error instanceof HostnameError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
