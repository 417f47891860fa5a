// All SQL of device tokens. The channel is stored encrypted; `channel_hash` is its SHA-256 (lib/crypto hashToken).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { PushProvider } from './notifications.columns.js';

export interface NewToken {
  user: string;
  app: string;
  provider: PushProvider;
  channel_hash: Buffer;
  channel_encrypted: string;
  device_id: string;
}

/** Registers a token, or moves the (app, channel) token that exists to this user and device. */
export async function upsertToken(db: Kysely<DB>, token: NewToken, at: Date): Promise<void> {
  await db
    .insertInto('notification_tokens')
    .values({ ...token, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['app', 'channel_hash']).doUpdateSet({
        user: token.user,
        provider: token.provider,
        channel_encrypted: token.channel_encrypted,
        device_id: token.device_id,
        updated_at: at,
      }),
    )
    .execute();
}

/** Deletes the caller's tokens of `app` (any app when null) whose device_id or channel is `ref`; answers how many. */
export async function deleteTokens(
  db: Kysely<DB>,
  user: string,
  app: string | null,
  ref: { deviceId: string; channelHash: Buffer },
): Promise<number> {
  let query = db
    .deleteFrom('notification_tokens')
    .where('user', '=', user)
    .where((eb) => eb.or([eb('device_id', '=', ref.deviceId), eb('channel_hash', '=', ref.channelHash)]));
  if (app !== null) query = query.where('app', '=', app);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function tokensOf(db: Kysely<DB>, users: string[]) {
  if (users.length === 0) return [];
  return db
    .selectFrom('notification_tokens')
    .select(['id', 'user', 'app', 'provider', 'channel_encrypted', 'device_id'])
    .where('user', 'in', users)
    .execute();
}
