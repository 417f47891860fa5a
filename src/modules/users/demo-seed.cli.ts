// `gable seed demo [--json]`.
import type { Command } from 'commander';
import { withDeps } from '../../cli/context.js';
import { reportOperatorErrors } from '../brands/operator-errors.js';
import { seedDemoWorld, type DemoWorld } from './demo-seed.js';
import { seedDemoContacts } from '../contacts/contacts.demo.js';

export function registerDemoSeedCommand(seed: Command): void {
  seed
    .command('demo')
    .description('create the demo world (brokerage, two offices, four users, three OAuth clients, 320 contacts); re-running changes nothing and prints the same values')
    .option('--json', 'print the world as one JSON document (clients, brands, users with passwords)')
    .action(async (options: { json?: boolean }) => {
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const world = await seedDemoWorld(deps);
          const contacts = (await seedDemoContacts(deps)).map(({ brand, contacts }) => ({ brand, contacts }));
          console.log(options.json ? JSON.stringify({ ...world, contacts }, null, 2) : describe(world, contacts));
        }),
      );
    });
}

function describe(world: DemoWorld, contacts: { brand: string; contacts: number }[]): string {
  const brandName = new Map(world.brands.map((b) => [b.id, b.name]));
  return [
    'Demo world ready (add --json for a machine-readable copy).',
    '',
    'Brands:',
    ...world.brands.map((b) => `  ${b.id}  ${b.name}${b.parent ? ` (under ${brandName.get(b.parent)})` : ''}`),
    '',
    'Users (email / password / memberships):',
    ...world.users.map((u) => `  ${u.email}  ${u.password}  ${u.memberships.map((m) => `${brandName.get(m.brand)} [${m.acl.join(', ')}]`).join('; ')}`),
    '',
    'OAuth clients:',
    `  first-party  client_id=${world.clients.first_party.client_id}  client_secret=${world.clients.first_party.client_secret}`,
    `  partner      client_id=${world.clients.partner.client_id}  client_secret=${world.clients.partner.client_secret}  redirect_uris=${world.clients.partner.redirect_uris.join(' ')}`,
    `  public       client_id=${world.clients.public.client_id}  redirect_uris=${world.clients.public.redirect_uris.join(' ')}`,
    '',
    'Contacts:',
    ...contacts.map((c) => `  ${brandName.get(c.brand)}: ${c.contacts}`),
  ].join('\n');
}
