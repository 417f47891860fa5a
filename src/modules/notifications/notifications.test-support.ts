// Test support for the notification tests: a user with a token, and notify() in its own transaction.
import type { Deps } from '../../deps.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { notify, type NotifyInput } from './notify.js';

export async function feedUser(deps: Deps) {
  const user = await createUser(deps);
  return { id: user.id, headers: bearer(await tokenFor(deps, user.id)) };
}

export async function sendNotification(deps: Deps, recipients: string[], fields: Partial<NotifyInput> = {}) {
  return deps.db.transaction().execute((trx) => notify(trx, deps, { recipients, action: 'Tested', message: 'Hello', ...fields }));
}
