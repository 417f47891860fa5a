// What the MFA columns of users hold: the TOTP secret, sealed at rest (lib/crypto.ts SecretBox).
import { sealedColumns } from '../../db/sealed-columns.js';

/** A user's TOTP secret (pending while set-up is unconfirmed, kept while MFA is on). */
export const MFA_SEALED = sealedColumns('users', 'id', ['mfa_secret']);
