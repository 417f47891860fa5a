// Test support for the rotation of SECRET_KEY: a secret in every sealed column, sealed under a given key, and a
// snapshot of every stored sealed value (to prove a refusal wrote nothing and a rotation kept every plaintext).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../src/platform/deps.js';
import { hashToken, type SecretBox } from '../../src/lib/crypto.js';
import { readSealedBatch } from '../../src/db/sealed-columns.repository.js';
import { SEALED_COLUMNS } from '../../src/cli/sealed-columns.js';
import { createBrand, createUser } from './factories.js';

/**
 * Seals under `box` an MFA secret, a linked mailbox's two tokens, a webhook's key and previous key, and `devices`
 * push channels (one statement, however many). Answers the webhook's id and its key as it was shown (hex).
 */
export async function sealEveryKind(
  deps: Pick<Deps, 'db'>,
  box: SecretBox,
  devices: number,
): Promise<{ webhook: string; webhookKey: string }> {
  const user = await createUser(deps as Deps);
  const brand = await createBrand(deps as Deps);
  await deps.db
    .updateTable('users')
    .set({ mfa_secret: box.encrypt('JBSWY3DPEHPK3PXP') })
    .where('id', '=', user.id)
    .execute();
  await deps.db
    .insertInto('extmail_credentials')
    .values({
      user: user.id,
      brand: brand.id,
      provider: 'microsoft',
      remote_id: 'remote-1',
      email: 'agent@example.com',
      resource_name: 'users/remote-1',
      display_name: 'Agent',
      access_token_sealed: box.encrypt('access-token'),
      refresh_token_sealed: box.encrypt('refresh-token'),
    })
    .execute();
  const webhookKey = randomBytes(32).toString('hex');
  const webhook = await deps.db
    .insertInto('brand_webhooks')
    .values({
      brand: brand.id,
      topic: 'Contacts',
      url: 'https://receiver.example.com/hook',
      key_sealed: box.encrypt(webhookKey),
      previous_key_sealed: box.encrypt(randomBytes(32).toString('hex')),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (devices > 0) {
    const channels = Array.from({ length: devices }, () => randomBytes(32).toString('hex'));
    await deps.db
      .insertInto('notification_tokens')
      .values(
        channels.map((channel, n) => ({
          user: user.id,
          app: 'rechat',
          provider: 'apns',
          channel_hash: hashToken(channel),
          channel_encrypted: box.encrypt(channel),
          device_id: `device-${n}`,
        })),
      )
      .execute();
  }
  return { webhook: webhook.id, webhookKey };
}

/** Every stored sealed value, by `table.column key`. */
export async function sealedSnapshot(deps: Pick<Deps, 'db'>): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const table of SEALED_COLUMNS)
    for (let after: string | null = null; ;) {
      const rows = await readSealedBatch(deps.db, table, after, 1000);
      if (rows.length === 0) break;
      for (const row of rows)
        row.values.forEach(
          (value, i) => value !== null && values.set(`${table.table}.${table.columns[i]} ${row.key}`, value),
        );
      after = rows.at(-1)!.key;
    }
  return values;
}

/** The plaintexts of a snapshot, opened with `box` (throws if one does not open). */
export function plaintexts(snapshot: Map<string, string>, box: SecretBox): Map<string, string> {
  return new Map([...snapshot].map(([where, sealed]) => [where, box.decrypt(sealed)]));
}
