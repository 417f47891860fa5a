// Rotation of SECRET_KEY (docs/secret-rotation.md) on the test database: secrets sealed under the old key read once
// it is SECRET_KEY_PREVIOUS; a wrong previous key is refused by name; a rotation stopped after any batch leaves every
// value readable and a second run finishes it; afterwards the new key alone reads everything; signed links and
// webhook signatures made before it still hold. (The command itself, killed midway: test/secrets-rotate.cli.test.ts.)
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, useTestApp } from '../../test/helpers/app.js';
import { plaintexts, sealedSnapshot, sealEveryKind } from '../../test/helpers/sealed.js';
import { SEALED_COLUMNS } from '../cli/sealed-columns.js';
import { keyFingerprint, SecretBox } from '../lib/crypto.js';
import { FileSigner } from '../files/signing.js';
import { linkToken, verifyLinkToken } from '../mail/tracking.js';
import { eventsKey, signEvents, verifyEventsSignature } from '../mail/events-feed.js';
import { checkUnsubscribe, unsubscribeUrl } from '../modules/saved-searches/delivery.unsubscribe.js';
import { signDelivery } from '../modules/webhooks/signing.js';
import { featureStatus } from './feature-status.js';
import { rotateSealed, rotationRefusals, surveySealed, underPreviousKeys } from './secret-rotation.js';

const OLD = Buffer.from(TEST_SECRET_KEY, 'hex');
const NEW = Buffer.alloc(32, 0x5a);
const WRONG = Buffer.alloc(32, 0x33);
const DEVICES = 40;
/** The sealed values: the MFA secret, two mailbox tokens, a webhook's two keys, and the devices' channels. */
const VALUES = 5 + DEVICES;

const keys = (secretKey: Buffer, ...previousSecretKeys: Buffer[]) => ({ secretKey, previousSecretKeys });
const boxOf = (secretKey: Buffer, ...previous: Buffer[]) => new SecretBox(secretKey, previous);

describe('rotating SECRET_KEY', () => {
  const t = useTestApp();
  const rotating = keys(NEW, OLD);
  const box = boxOf(NEW, OLD);
  let webhook: { webhook: string; webhookKey: string };
  let before: Map<string, string>;

  beforeAll(async () => {
    webhook = await sealEveryKind(t.deps, t.deps.secrets, DEVICES);
    before = plaintexts(await sealedSnapshot(t.deps), t.deps.secrets);
  });

  it('lists every column that holds a sealed value', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()
        and (column_name like '%\\_sealed' or column_name like '%\\_encrypted' or column_name = 'mfa_secret')
    `.execute(t.deps.db);
    const listed = SEALED_COLUMNS.flatMap((table) => table.columns.map((column) => `${table.table}.${column}`));
    expect(rows.map((row) => `${row.table_name}.${row.column_name}`).sort()).toEqual(listed.sort());
  });

  it('reads what the old key sealed once it is the previous key, and seals under the new one', async () => {
    expect(before.size).toBe(VALUES);
    const survey = await surveySealed(t.deps.db, box, rotating, SEALED_COLUMNS);
    expect(survey).toMatchObject({ byKey: [0, VALUES], unreadable: 0, rows: 3 + DEVICES });
    expect(plaintexts(await sealedSnapshot(t.deps), box)).toEqual(before);
    expect(box.keyIndexOf(box.encrypt('new'))).toBe(0);
    expect(boxOf(OLD).keyIndexOf(box.encrypt('new'))).toBe(-1);
  });

  it('names a previous key that opens nothing, and the values no configured key opens', async () => {
    const wrong = keys(NEW, WRONG);
    const survey = await surveySealed(t.deps.db, boxOf(NEW, WRONG), wrong, SEALED_COLUMNS);
    const refusals = rotationRefusals(survey, wrong).join('\n');
    expect(refusals).toContain(
      `SECRET_KEY_PREVIOUS (fingerprint ${keyFingerprint(WRONG)}) opens none of the ${VALUES}`,
    );
    expect(refusals).toMatch(new RegExp(`^${VALUES} stored value\\(s\\) open under no configured key`, 'm'));
    expect(refusals).not.toContain(WRONG.toString('hex'));

    const extra = keys(NEW, OLD, WRONG);
    const extraRefusals = rotationRefusals(
      await surveySealed(t.deps.db, boxOf(NEW, OLD, WRONG), extra, SEALED_COLUMNS),
      extra,
    );
    expect(extraRefusals).toEqual([
      expect.stringContaining(`SECRET_KEY_PREVIOUS item 2 (fingerprint ${keyFingerprint(WRONG)}) opens none`),
    ]);
    expect(rotationRefusals(await surveySealed(t.deps.db, box, rotating, SEALED_COLUMNS), rotating)).toEqual([]);
  });

  it('doctor counts what is still under the previous key', async () => {
    const [row] = (
      await featureStatus({
        config: { ...t.deps.config, ...rotating },
        db: t.deps.db,
        files: t.deps.files,
        renderer: null,
        sealed: SEALED_COLUMNS,
      })
    ).filter((r) => r.feature === 'secrets');
    expect(row).toMatchObject({
      state: 'ready',
      detail: expect.stringContaining(`${VALUES} stored secret(s) still under`),
    });
    expect(row!.detail).toContain('run gable secrets rotate');
  });

  it('stopped after any batch, leaves every value readable; run again, finishes; then the new key alone reads all', async () => {
    let batches = 0;
    const stopped = rotateSealed(t.deps.db, box, SEALED_COLUMNS, {
      batchRows: 7,
      afterBatch: async () => {
        const survey = await surveySealed(t.deps.db, box, rotating, SEALED_COLUMNS);
        expect(survey.unreadable).toBe(0);
        expect(survey.byKey[0]! + survey.byKey[1]!).toBe(VALUES);
        if (++batches === 3) throw new Error('killed');
      },
    });
    await expect(stopped).rejects.toThrow('killed');
    const midway = await surveySealed(t.deps.db, box, rotating, SEALED_COLUMNS);
    expect(midway.byKey[0]).toBeGreaterThan(0);
    expect(underPreviousKeys(midway)).toBeGreaterThan(0);

    const finished = await rotateSealed(t.deps.db, box, SEALED_COLUMNS, { batchRows: 7 });
    expect(finished.resealed).toBe(underPreviousKeys(midway));
    expect(finished.unreadable).toBe(0);
    const survey = await surveySealed(t.deps.db, boxOf(NEW), keys(NEW), SEALED_COLUMNS);
    expect(survey).toMatchObject({ byKey: [VALUES], unreadable: 0 });
    expect(plaintexts(await sealedSnapshot(t.deps), boxOf(NEW))).toEqual(before);

    const again = await rotateSealed(t.deps.db, box, SEALED_COLUMNS, { batchRows: 7 });
    expect(again).toMatchObject({ resealed: 0, rows: 3 + DEVICES });
  });

  it('keeps the webhook signing key: a delivery is signed the same before and after', async () => {
    const row = await t.deps.db
      .selectFrom('brand_webhooks')
      .select('key_sealed')
      .where('id', '=', webhook.webhook)
      .executeTakeFirstOrThrow();
    const sign = (keyHex: string) => signDelivery([Buffer.from(keyHex, 'hex')], 'msg_1', 1_800_000_000, '{"a":1}');
    expect(boxOf(NEW).keyIndexOf(row.key_sealed)).toBe(0);
    expect(sign(boxOf(NEW).decrypt(row.key_sealed))).toEqual(sign(webhook.webhookKey));
  });

  it('checks links signed before the rotation while the old key is previous, and only then', async () => {
    const search = '0b2b2f5e-0000-4000-8000-000000000001';
    const contact = '0b2b2f5e-0000-4000-8000-000000000002';
    const url = new URL(unsubscribeUrl(t.deps, search, contact));
    const request = { search, contact, token: url.searchParams.get('token')! };
    const rotated = { ...t.deps, config: { ...t.deps.config, ...rotating } };
    // The signature holds (the link then names no stored search: 404); under the new key alone it does not (400).
    await expect(checkUnsubscribe(rotated, request)).rejects.toMatchObject({ http: 404 });
    await expect(
      checkUnsubscribe({ ...t.deps, config: { ...t.deps.config, ...keys(NEW) } }, request),
    ).rejects.toMatchObject({ http: 400 });

    const now = t.clock.now();
    const file = new URL(new FileSigner(OLD).url('http://gable.test', search, 'file', now));
    const check = (signer: FileSigner) =>
      signer.check(search, 'file', Number(file.searchParams.get('expires')), file.searchParams.get('signature')!, now);
    expect(check(new FileSigner(NEW, [OLD]))).toBe('ok');
    expect(check(new FileSigner(NEW))).toBe('invalid');

    const link = linkToken(OLD, 'click', search, 'https://example.com/');
    expect(verifyLinkToken([NEW, OLD], 'click', link, 'https://example.com/')).toBe(search);
    expect(verifyLinkToken([NEW], 'click', link, 'https://example.com/')).toBeNull();

    const at = Math.floor(now.getTime() / 1000);
    const headers = {
      'webhook-id': 'e1',
      'webhook-timestamp': String(at),
      'webhook-signature': signEvents(eventsKey(OLD), 'e1', at, '{}'),
    };
    expect(() => verifyEventsSignature([NEW, OLD], headers, '{}', now)).not.toThrow();
    expect(() => verifyEventsSignature([NEW], headers, '{}', now)).toThrow();
  });
});
