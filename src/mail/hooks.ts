// What the mail ledger asks of feature modules: to send a message through a linked mailbox (extmail), and to mark
// the contacts behind an unsubscribed address (contacts). The composition fills these in (deps.ts), so the ledger,
// which sits below the modules, imports none of them.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/crypto.js';
import type { OutboundHttp } from '../lib/outbound.js';
import type { SendOutcome, WireMessage } from './transport.js';

/**
 * What a hook may use of the dependencies (what the mail service itself holds), spelled out rather than picked
 * from Deps: Deps holds the hooks, and a type import of it here would close a loop.
 */
export interface MailHookDeps {
  readonly db: Kysely<DB>;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly config: Config;
  readonly outbound: OutboundHttp;
  readonly secrets: SecretBox;
}

export interface MailHooks {
  /** Sends one message through the linked mailbox `credential` (its provider's API) instead of SMTP. */
  sendThroughMailbox(deps: MailHookDeps, credential: string, message: WireMessage): Promise<SendOutcome>;
  /** Marks the brand's contacts with this address (its emailKey) unsubscribed, in the unsubscribe's transaction. */
  unsubscribeContacts(
    trx: Transaction<DB>,
    deps: { readonly clock: Clock },
    brand: string,
    emailKey: string,
  ): Promise<unknown>;
}
