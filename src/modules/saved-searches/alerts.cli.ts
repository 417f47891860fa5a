// `gable alerts preview SEARCH_ID`: what the next digest of each linked contact would contain (docs/saved-searches.md).
import type { Command } from 'commander';
import { withDeps, type CommandDepsRunner } from '../../platform/commands.js';
import { isUuid } from '../../lib/uuid.js';
import type { SearchPreview } from './delivery.preview.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

export function formatPreview(preview: SearchPreview): string {
  const lines = [`${preview.title} (${preview.id}), time zone ${preview.timezone}`];
  if (preview.links.length === 0) lines.push('  no linked contacts');
  for (const link of preview.links) {
    const who = `${link.email ?? 'no email address'} (${link.contact})`;
    if (!link.next_digest_at) {
      lines.push(
        `  ${who}: ${link.frequency}${link.frequency === 'Instant' ? ' — emailed as matches arrive' : ' — not alerted'}`,
      );
      continue;
    }
    lines.push(
      `  ${who}: ${link.frequency} digest of ${link.local_date} at ${link.next_digest_at} — ${link.listings.length === 0 ? 'nothing new: no email' : `${link.listings.length} listing(s)`}`,
    );
    for (const listing of link.listings)
      lines.push(`    ${listing.price ?? '—'}  ${listing.status}  ${listing.address}  ${listing.url}`);
  }
  return lines.join('\n');
}

export function registerAlertCommands(
  parent: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const alerts = parent.command('alerts').description('saved-search alerts');
  alerts
    .command('preview')
    .description('what the next digest of each contact linked to a saved search would contain, if it ran now')
    .argument('<search>', 'saved search id')
    .option('--json', 'print JSON')
    .action(async (search: string, options: { json?: boolean }) => {
      if (!isUuid(search)) {
        console.error(`${search}: expected a saved search id (uuid)`);
        process.exitCode = 2;
        return;
      }
      await withCommandDeps(async (deps) => {
        const { previewDigests } = await import('./delivery.preview.js');
        const preview = await previewDigests(deps, search.toLowerCase());
        if (!preview) {
          console.error(`saved search ${search} not found`);
          process.exitCode = 1;
          return;
        }
        console.log(options.json ? JSON.stringify(preview, null, 2) : formatPreview(preview));
      });
    });
}
