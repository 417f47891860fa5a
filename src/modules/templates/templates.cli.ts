// `gable seed templates`: the shipped template library on any server (an embedded one gets it on first start).
import type { Command } from 'commander';
import { withDeps } from '../../platform/commands.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

export function registerTemplateCommands(seedCmd: Command): void {
  seedCmd
    .command('templates')
    .description('add the shipped print and social templates as global templates (or refresh them to this version)')
    .action(async () => {
      const { seedTemplateLibrary } = await import('./templates.library.js');
      await withDeps({}, async (deps) => {
        const count = await seedTemplateLibrary(deps);
        console.log(`${count} library templates are in place`);
      });
    });
}
