// What the campaign unsubscribe pages do (docs/public-pages.md "Unsubscribe pages"). The link's signature is the
// credential (src/mail/tracking.ts): it names one ledger message, hence one recipient and one brand. A GET only
// reads; the POST unsubscribes exactly as the RFC 8058 one-click always has (tracking.service's `unsubscribe`);
// "everything" does that and then, in the same transaction, widens it to the brand's whole family and its alerts.
import type { Deps } from '../../platform/deps.js';
import { insertUnsubscribe } from '../../mail/mail.repository.js';
import { describeUnsubscribe, unsubscribe, type UnsubscribeTarget } from '../../mail/tracking.service.js';
import { firstLiveBrandPalette, subtreeIds } from '../brands/index.js';
import { unsubscribeContactsIn } from '../contacts/index.js';
import { unsubscribeContactLinks } from '../saved-searches/index.js';
import type { RenderedPage } from './page-layout.js';
import { themeOf, type Theme } from './theme.js';
import { askPage, everythingPage, unsubscribedPage } from './unsubscribe-page.view.js';

type PageDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailHooks'>;

/** The style of the brand whose mail it was (its effective palette), neutral when that brand is gone. */
export async function themeOfBrand(deps: Pick<Deps, 'db'>, brand: string | null): Promise<Theme> {
  return themeOf((brand ? await firstLiveBrandPalette(deps, [brand]) : undefined) ?? null);
}

async function view(deps: PageDeps, target: UnsubscribeTarget, token: string) {
  return {
    theme: await themeOfBrand(deps, target.brand),
    appName: deps.config.appName,
    address: target.address,
    token,
  };
}

/** GET: the question. Changes nothing (link scanners and previews fetch GETs). */
export async function showUnsubscribeQuestion(deps: PageDeps, token: string): Promise<RenderedPage> {
  return askPage(await view(deps, await describeUnsubscribe(deps, token), token));
}

/** POST (the page's button or a mail client's one-click): the brand's marketing mail stops. */
export async function confirmUnsubscribe(deps: PageDeps, token: string): Promise<RenderedPage> {
  return unsubscribedPage(await view(deps, await unsubscribe(deps, token), token));
}

/**
 * "Everything from this brand": the one-click unsubscribe, and for the brand and every live brand below it (its
 * offices and teams) the address remembered as unsubscribed and their live contacts with it marked unsubscribed,
 * and every saved-search link of those contacts set to Never (their listing alerts stop, and stay stopped should
 * someone mark the contact subscribed again).
 */
export async function unsubscribeFromEverything(deps: PageDeps, token: string): Promise<RenderedPage> {
  const target = await unsubscribe(deps, token, async (trx, { brand, address, message }) => {
    const at = deps.clock.now();
    const family = new Set([brand, ...(await subtreeIds(trx, brand))]);
    const contacts: string[] = [];
    for (const member of family) {
      // The brand of the message has it already (the one-click part above); inserting again changes nothing.
      await insertUnsubscribe(trx, member, address, message, at);
      contacts.push(...(await unsubscribeContactsIn(trx, deps, member, address)));
    }
    await unsubscribeContactLinks(trx, contacts, at);
  });
  return everythingPage(await view(deps, target, token));
}
