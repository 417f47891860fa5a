// `gable admin brand create|list` and `gable admin member add|remove`.
import type { Command } from 'commander';
import { withDeps, reportOperatorErrors } from '../../platform/commands.js';
import { ACL_WORDS, BRAND_TYPES } from './brands.words.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

/** The `admin brand` group, shared with other modules' brand commands (whoever registers first creates it). */
function brandGroup(admin: Command): Command {
  return (
    admin.commands.find((command) => command.name() === 'brand') ??
    admin.command('brand').description('brands: hierarchy, members, white-label host names')
  );
}

export function registerBrandCommands(admin: Command): void {
  const brand = brandGroup(admin);

  brand
    .command('create')
    .description('create a brand (a brokerage, or an office/team under --parent)')
    .requiredOption('--name <name>', 'brand name')
    .option('--parent <brandId>', 'parent brand id (uuid)')
    .option('--type <type>', `one of ${BRAND_TYPES.join(', ')} (default: Brokerage, or Office with --parent)`)
    .option('--json', 'print JSON')
    .action(async (options: { name: string; parent?: string; type?: string; json?: boolean }) => {
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const { createBrand } = await import('./brands.service.js');
          const created = await createBrand(deps.db, {
            name: options.name,
            parent: options.parent ?? null,
            ...(options.type ? { type: options.type } : {}),
          });
          const view = { id: created.id, name: created.name, parent: created.parent, type: created.brand_type };
          console.log(
            options.json
              ? JSON.stringify(view, null, 2)
              : `created ${view.type} ${view.id} "${view.name}"${view.parent ? ` under ${view.parent}` : ''}`,
          );
        }),
      );
    });

  brand
    .command('list')
    .description('list live brands as a tree')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const { listBrands } = await import('./brands.service.js');
          const brands = await listBrands(deps.db);
          const view = brands.map((b) => ({
            id: b.id,
            name: b.name,
            parent: b.parent,
            type: b.brand_type,
            members: b.members,
          }));
          if (options.json) return console.log(JSON.stringify(view, null, 2));
          if (view.length === 0) return console.log('no brands yet: gable admin brand create --name "Acme Realty"');
          printTree(view);
        }),
      );
    });

  const member = admin.command('member').description('memberships: who reaches which brand, with which ACL words');

  member
    .command('add')
    .description('make a user a member of a brand (an existing membership gets the new role and ACL)')
    .requiredOption('--user <user>', 'user id or email')
    .requiredOption('--brand <brandId>', 'brand id (uuid)')
    .requiredOption('--acl <words>', `comma-separated ACL words: ${ACL_WORDS.join(',')} (may be empty: "")`)
    .option('--role <name>', 'role name shown to people', 'Member')
    .option('--json', 'print JSON')
    .action(async (options: { user: string; brand: string; acl: string; role: string; json?: boolean }) => {
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const { addMember, parseAcl } = await import('./brands.service.js');
          const acl = parseAcl(options.acl);
          const { membership, created } = await addMember(deps.db, deps.clock, {
            user: options.user,
            brand: options.brand,
            acl,
            role: options.role,
          });
          if (options.json) return console.log(JSON.stringify({ ...membership, created }, null, 2));
          console.log(
            `${created ? 'added' : 'updated'} ${membership.user} in brand ${membership.brand} as ${membership.role} [${membership.acl.join(', ')}]`,
          );
        }),
      );
    });

  member
    .command('remove')
    .description('end a membership (the user keeps any other memberships)')
    .requiredOption('--user <user>', 'user id or email')
    .requiredOption('--brand <brandId>', 'brand id (uuid)')
    .option('--json', 'print JSON')
    .action(async (options: { user: string; brand: string; json?: boolean }) => {
      await reportOperatorErrors(() =>
        withDeps({}, async (deps) => {
          const { removeMember } = await import('./brands.service.js');
          const removed = await removeMember(deps.db, deps.clock, { user: options.user, brand: options.brand });
          console.log(
            options.json
              ? JSON.stringify({ removed: removed.id, user: removed.user, brand: removed.brand }, null, 2)
              : `removed ${removed.user} from brand ${removed.brand}`,
          );
        }),
      );
    });
}

interface BrandLine {
  id: string;
  name: string;
  parent: string | null;
  type: string;
  members: number;
}

function printTree(brands: BrandLine[]): void {
  const ids = new Set(brands.map((b) => b.id));
  const children = new Map<string | null, BrandLine[]>();
  // A brand whose parent is deleted is shown as a root, so nothing live disappears from the list.
  for (const b of brands) {
    const key = b.parent !== null && ids.has(b.parent) ? b.parent : null;
    children.set(key, [...(children.get(key) ?? []), b]);
  }
  const walk = (parent: string | null, depth: number): void => {
    for (const b of children.get(parent) ?? []) {
      console.log(
        `${'  '.repeat(depth)}${b.id}  ${b.type.padEnd(9)} ${b.name}  (${b.members} member${b.members === 1 ? '' : 's'})`,
      );
      if (depth < 32) walk(b.id, depth + 1);
    }
  };
  walk(null, 0);
}
