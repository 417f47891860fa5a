// Every column that holds a SecretBox-sealed value, named by the module that owns it: what `gable secrets rotate`
// re-encrypts and `gable doctor` counts (platform/secret-rotation.ts). A module that seals a new column adds it to
// its *.columns.ts and here; src/platform/secret-rotation.test.ts fails on a `*_sealed` or `*_encrypted` column
// missing from this list.
import type { SealedColumns } from '../db/sealed-columns.js';
import { MFA_SEALED } from '../modules/mfa/mfa.columns.js';
import { TOKENS_SEALED } from '../modules/notifications/notifications.columns.js';
import { CREDENTIALS_SEALED } from '../modules/extmail/extmail.columns.js';
import { WEBHOOKS_SEALED } from '../modules/webhooks/webhooks.columns.js';
import { SIGNING_KEYS_SEALED } from '../modules/auth/auth.columns.js';

export const SEALED_COLUMNS: readonly SealedColumns[] = [
  MFA_SEALED,
  TOKENS_SEALED,
  CREDENTIALS_SEALED,
  WEBHOOKS_SEALED,
  SIGNING_KEYS_SEALED,
];
