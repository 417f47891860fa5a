// `gable admin keys rotate` as work that the command runs on the database, or that a running embedded server runs
// for it through its operator channel (platform/operator-channel.ts): its per-process key cache then learns of the
// new keys at once.
import type { Deps } from '../../platform/deps.js';
import type { OperatorAction } from '../../platform/operator-channel.js';
import { rotateSigningKeys, type KeyRotation } from './signing-keys.js';

export function rotateKeysAsOperator(deps: Deps): Promise<KeyRotation> {
  return rotateSigningKeys(deps);
}

export const keysRotateOperatorAction: OperatorAction = (deps) => rotateKeysAsOperator(deps);
