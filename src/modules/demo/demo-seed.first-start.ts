// First start of an embedded server on an empty database: build the demo world and leave its JSON (with
// passwords and client secrets) in DATA_DIR/demo.json, readable by the owner only.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FirstStartStep } from '../../platform/feature.js';
import type { Deps } from '../../platform/deps.js';
import { anyUserExists } from './demo-seed.repository.js';
import { seedDemoWorld, type DemoWorld } from './demo-seed.js';

export const DEMO_JSON_FILE = 'demo.json';

export function writeDemoJson(dataDir: string, world: DemoWorld): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, DEMO_JSON_FILE);
  writeFileSync(file, JSON.stringify(world, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600); // `mode` applies only when the file is created
  return file;
}

/**
 * First start: the demo world, on a database without users. The seed is one transaction and idempotent, so after
 * a crash (before or after its commit) running it again puts the same world back and writes demo.json.
 */
export const demoSeedStep: FirstStartStep = {
  name: 'demo-world',
  isNeeded: async (deps) => !(await anyUserExists(deps.db)),
  run: seedDemoAndWriteJson,
};

async function seedDemoAndWriteJson(deps: Deps): Promise<void> {
  const world = await seedDemoWorld(deps);
  const file = writeDemoJson(deps.config.dataDir, world);
  deps.log.info(
    { file, users: world.users.map((u) => u.email), first_party_client: world.clients.first_party.client_id },
    `empty database: created the demo world; its logins and client secrets are in ${file} (also: npx gable seed demo --json)`,
  );
}
