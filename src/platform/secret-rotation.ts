// Rotation of SECRET_KEY (docs/secret-rotation.md; decisions §20): what `gable secrets rotate` and `gable doctor` do
// with the sealed columns the modules name. A survey opens every stored value and counts it by the key that opens
// it; rotation refuses, before writing anything, what would leave a value unreadable or shows a mistaken key; then
// it re-encrypts under SECRET_KEY, a batch of rows per transaction in key order. A value already under SECRET_KEY
// is left alone, so a rotation stopped anywhere is finished by running it again, and every value opens with
// SECRET_KEY or a previous key at every moment (each row is written whole, and only by a committed transaction).
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { keyFingerprint, verificationKeys, type MasterKeys, type SecretBox } from '../lib/crypto.js';
import { readSealedBatch, writeResealed, type Reseal } from '../db/sealed-columns.repository.js';
import type { SealedColumns } from '../db/sealed-columns.js';

/** Rows per transaction of a rotation, and per read of a survey. */
export const ROTATION_BATCH_ROWS = 500;

export interface SealedSurvey {
  /** Rows holding at least one sealed value: what a rotation walks. */
  rows: number;
  /** Values opened by each key: [0] SECRET_KEY, [n] the n-th SECRET_KEY_PREVIOUS. */
  byKey: number[];
  /** Values no configured key opens. */
  unreadable: number;
  /** The first of those, to name it: `table.column` of the row with this key. */
  firstUnreadable: string | null;
}

/** Opens every stored sealed value (read only) and counts it by the key that opens it. */
export async function surveySealed(
  db: Kysely<DB>,
  box: SecretBox,
  keys: MasterKeys,
  tables: readonly SealedColumns[],
  batchRows = ROTATION_BATCH_ROWS * 4,
): Promise<SealedSurvey> {
  const survey: SealedSurvey = {
    rows: 0,
    byKey: verificationKeys(keys).map(() => 0),
    unreadable: 0,
    firstUnreadable: null,
  };
  for (const table of tables) {
    for (let after: string | null = null; ;) {
      const rows = await readSealedBatch(db, table, after, batchRows);
      if (rows.length === 0) break;
      survey.rows += rows.length;
      for (const row of rows)
        for (const [index, value] of row.values.entries()) {
          if (value === null) continue;
          const key = box.keyIndexOf(value);
          if (key >= 0) survey.byKey[key]!++;
          else {
            survey.unreadable++;
            survey.firstUnreadable ??= `${table.table}.${table.columns[index]} of row ${row.key}`;
          }
        }
      after = rows.at(-1)!.key;
    }
  }
  return survey;
}

/** How a message names a previous key: its place in SECRET_KEY_PREVIOUS and its fingerprint, never the key. */
export function previousKeyName(keys: MasterKeys, index: number): string {
  const place = keys.previousSecretKeys.length > 1 ? ` item ${index}` : '';
  return `SECRET_KEY_PREVIOUS${place} (fingerprint ${keyFingerprint(keys.previousSecretKeys[index - 1]!)})`;
}

/** Values a previous key still opens: what a rotation has left to do. */
export const underPreviousKeys = (survey: SealedSurvey): number =>
  survey.byKey.slice(1).reduce((sum, count) => sum + count, 0);

/**
 * Why a rotation must not start (empty when it may): a value no configured key opens (re-encrypting the others
 * would not make it readable, and dropping the previous key afterwards would lose it for good), or a previous key
 * that opens nothing while values not under SECRET_KEY are stored (a wrong key given for the right one).
 */
export function rotationRefusals(survey: SealedSurvey, keys: MasterKeys): string[] {
  const refusals: string[] = [];
  const configured = `SECRET_KEY (fingerprint ${keyFingerprint(keys.secretKey)})${
    keys.previousSecretKeys.length > 0
      ? ` and ${keys.previousSecretKeys.map((_, i) => previousKeyName(keys, i + 1)).join(', ')}`
      : ', SECRET_KEY_PREVIOUS not set'
  }`;
  if (survey.unreadable > 0)
    refusals.push(
      `${survey.unreadable} stored value(s) open under no configured key (${configured}), the first ${survey.firstUnreadable}: ` +
        'set SECRET_KEY_PREVIOUS to the key they were sealed with',
    );
  const notCurrent = underPreviousKeys(survey) + survey.unreadable;
  for (const [place, count] of survey.byKey.entries())
    if (place > 0 && count === 0 && notCurrent > 0)
      refusals.push(
        `${previousKeyName(keys, place)} opens none of the ${notCurrent} stored value(s) not under SECRET_KEY: ` +
          'it is not the key SECRET_KEY replaced (remove it, or give the right one)',
      );
  return refusals;
}

export interface RotationOptions {
  batchRows?: number;
  /** After each committed batch: rows walked so far. A test stops the rotation here by throwing. */
  afterBatch?: (rowsDone: number) => void | Promise<void>;
}

export interface RotationResult {
  rows: number;
  /** Values written under SECRET_KEY. */
  resealed: number;
  /** Values changed by someone else between read and write (the newer value was kept: it is under SECRET_KEY). */
  changedMeanwhile: number;
  /** Values no configured key opens, left as they were (a survey refuses to start when there are any). */
  unreadable: number;
}

/** Re-encrypts under SECRET_KEY every stored value a previous key opens, a batch of rows per transaction. */
export async function rotateSealed(
  db: Kysely<DB>,
  box: SecretBox,
  tables: readonly SealedColumns[],
  options: RotationOptions = {},
): Promise<RotationResult> {
  const batchRows = options.batchRows ?? ROTATION_BATCH_ROWS;
  const result: RotationResult = { rows: 0, resealed: 0, changedMeanwhile: 0, unreadable: 0 };
  for (const table of tables) {
    for (let after: string | null = null; ;) {
      const rows = await readSealedBatch(db, table, after, batchRows);
      if (rows.length === 0) break;
      const changes: Reseal[][] = table.columns.map(() => []);
      for (const row of rows)
        for (const [index, value] of row.values.entries()) {
          if (value === null) continue;
          let to: string | null;
          try {
            to = box.reseal(value);
          } catch {
            result.unreadable++;
            continue;
          }
          if (to !== null) changes[index]!.push({ key: row.key, from: value, to });
        }
      const planned = changes.reduce((sum, column) => sum + column.length, 0);
      if (planned > 0) {
        const written = await db.transaction().execute(async (trx) => {
          let count = 0;
          for (const [index, column] of table.columns.entries())
            count += await writeResealed(trx, table, column, changes[index]!);
          return count;
        });
        result.resealed += written;
        result.changedMeanwhile += planned - written;
      }
      result.rows += rows.length;
      after = rows.at(-1)!.key;
      await options.afterBatch?.(result.rows);
    }
  }
  return result;
}
