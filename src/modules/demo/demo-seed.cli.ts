// `gable seed demo [--json]`. In embedded mode it also (re)writes DATA_DIR/demo.json. While an embedded server
// holds the data directory, the command cannot open the database; it prints DATA_DIR/demo.json instead, which
// the server wrote when it created the demo world (the world is derived from the secret key, so it is the same).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { readConfig, withDeps, reportOperatorErrors } from '../../platform/commands.js';
import { DataDirLockedError } from '../../db/lock.js';
import type { DemoWorld } from './demo-seed.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

/** The demo world as printed: with the number of demo contacts per brand when this run seeded them. */
type PrintedWorld = DemoWorld & { contacts?: { brand: string; contacts: number }[] };

export function registerDemoSeedCommand(seed: Command): void {
  seed
    .command('demo')
    .description(
      'create the demo world (brokerage, region, two offices, a marketing palette, four users, three OAuth clients, 320 contacts); re-running changes nothing and prints the same values. ' +
        'While an embedded server runs on DATA_DIR, prints DATA_DIR/demo.json instead',
    )
    .option('--json', 'print the world as one JSON document (clients, brands, users with passwords)')
    .action(async (options: { json?: boolean }) => {
      await reportOperatorErrors(async () => {
        const world = await seedOrReadSaved();
        if (!world) return;
        console.log(options.json ? JSON.stringify(world, null, 2) : describe(world));
      });
    });
}

async function seedOrReadSaved(): Promise<PrintedWorld | null> {
  try {
    return await withDeps({}, async (deps) => {
      const [{ writeDemoJson }, { seedDemoWorld }, { seedDemoContacts }] = await Promise.all([
        import('./demo-seed.first-start.js'),
        import('./demo-seed.js'),
        import('./demo-contacts.js'),
      ]);
      const world = await seedDemoWorld(deps);
      const contacts = (await seedDemoContacts(deps)).map(({ brand, contacts }) => ({ brand, contacts }));
      const printed = { ...world, contacts };
      if (deps.config.embedded) writeDemoJson(deps.config.dataDir, printed);
      return printed;
    });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const { DEMO_JSON_FILE } = await import('./demo-seed.first-start.js');
    const file = join(readConfig().dataDir, DEMO_JSON_FILE);
    if (!existsSync(file)) {
      console.error(
        `${error.message}\nThe running server has not written ${file} (it does when it creates the demo world): stop it and run this command again.`,
      );
      process.exitCode = 1;
      return null;
    }
    // stderr, so that `--json` output stays one JSON document
    console.error(
      `note: a running server holds the embedded database; printing ${file}, which it wrote when it created the demo world.`,
    );
    return JSON.parse(readFileSync(file, 'utf8')) as DemoWorld;
  }
}

function describe(world: PrintedWorld): string {
  const brandName = new Map(world.brands.map((b) => [b.id, b.name]));
  return [
    'Demo world ready (add --json for a machine-readable copy).',
    '',
    'Brands:',
    ...world.brands.map((b) => `  ${b.id}  ${b.name}${b.parent ? ` (under ${brandName.get(b.parent)})` : ''}`),
    '',
    'Users (email / password / memberships):',
    ...world.users.map(
      (u) =>
        `  ${u.email}  ${u.password}  ${u.memberships.map((m) => `${brandName.get(m.brand)} [${m.acl.join(', ')}]`).join('; ')}`,
    ),
    '',
    'OAuth clients:',
    `  first-party  client_id=${world.clients.first_party.client_id}  client_secret=${world.clients.first_party.client_secret}`,
    `  partner      client_id=${world.clients.partner.client_id}  client_secret=${world.clients.partner.client_secret}  redirect_uris=${world.clients.partner.redirect_uris.join(' ')}`,
    `  public       client_id=${world.clients.public.client_id}  redirect_uris=${world.clients.public.redirect_uris.join(' ')}`,
    ...(world.contacts
      ? ['', 'Contacts:', ...world.contacts.map((c) => `  ${brandName.get(c.brand)}: ${c.contacts}`)]
      : []),
  ].join('\n');
}
