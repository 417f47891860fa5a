// The "Ask about this home" form (docs/public-pages.md "Ask about this home"): whether the listing page offers it,
// and what a post does. A post creates the lead exactly as the brand's lead channel webhook does — the same service
// call (captureFromChannel, through the contacts module's face), so the same dedupe, rate limits and
// ContactLeadCaptured activity — after checks of its own, cheapest first, none of which writes: a tighter per-IP
// limit, the signed form token (CSRF, expiry, the brand), the bot trap, the listing, the brand's channel, the fields.
import type { Deps } from '../../platform/deps.js';
import { AppError } from '../../errors.js';
import { EMAIL, normalizePhone } from '../../lib/contact-values.js';
import { isUuid } from '../../lib/uuid.js';
import { AttemptLimiter, attemptKey, type AttemptPolicy } from '../../platform/attempts.js';
import { firstLiveBrandPalette } from '../brands/index.js';
import { captureFromChannel, defaultLeadChannel, isCleanText } from '../contacts/index.js';
import { findPublicListing } from '../listings/index.js';
import { findPageUser } from '../users/index.js';
import { LISTING_PAGE_PREFIX, signedBrandParameter, verifiedBrand } from './listing-link.js';
import { fullAddressOf } from './listing-page.view.js';
import { signFormToken, verifyFormToken } from './lead-form.token.js';
import {
  ASK_LIMITS,
  askAgainPage,
  HONEYPOT_FIELD,
  refusedPostPage,
  thanksPage,
  type AskErrors,
  type AskFormSetup,
  type AskValues,
} from './lead-form.view.js';
import { notFoundPage } from './not-found.view.js';
import type { RenderedPage } from './page-layout.js';
import { themeOf, type Theme } from './theme.js';

type PageDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/** A person needs longer than this to read a form and fill it in; a script posting the page back does not. */
export const MIN_FILL_SECONDS = 3;
/**
 * Posts of the form per visitor IP and hour, counted before anything else (every post, sent, refused or trapped).
 * Tighter than the webhook's per-IP limit (a site's server sends the leads of all its visitors from one address;
 * here the address is the visitor's own), so a flood from one address meets 429 long before it meets the webhook's.
 */
export const ASK_FORM_POLICY: AttemptPolicy = {
  maxFailuresPerHour: 20,
  freeConsecutive: 20,
  maxDelaySeconds: 0,
  resetOnSuccess: false,
};
/** Recorded as the contact's `source` (the channel gives its `source_type`). */
export const ASK_LEAD_SOURCE = 'Listing page';

const listingPath = (listing: string) => `${LISTING_PAGE_PREFIX}${listing.toLowerCase()}`;
export const askPath = (listing: string) => `${listingPath(listing)}/ask`;
export const thanksPath = (listing: string) => `${askPath(listing)}/thanks`;
const withBrand = (deps: PageDeps, path: string, listing: string, brand: string | null) =>
  brand ? `${path}?b=${signedBrandParameter(deps.config, listing, brand)}` : path;

/**
 * The form of a listing page styled for `brand`, which the caller found to have a lead channel (page-brand.cache.ts;
 * the POST checks the channel again); null without a brand.
 */
export function askFormFor(
  deps: PageDeps,
  listing: string,
  brand: { id: string; name: string } | null,
): AskFormSetup | null {
  if (!brand) return null;
  return {
    action: askPath(listing),
    token: signFormToken(deps.config, listing, brand.id, deps.clock.now()),
    brandName: brand.name,
  };
}

export type AskOutcome =
  | { kind: 'sent'; location: string; trapped: 'honeypot' | 'too-fast' | null }
  | { kind: 'page'; status: 400 | 403 | 404; page: RenderedPage };

const one = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';

function readValues(body: Record<string, unknown>): AskValues {
  return {
    name: one(body.name).replace(/\s+/g, ' ').trim(),
    email: one(body.email).trim(),
    phone: one(body.phone).trim(),
    message: one(body.message).trim(),
  };
}

function problemsOf(values: AskValues): AskErrors {
  const errors: AskErrors = {};
  for (const [field, limit] of Object.entries(ASK_LIMITS) as [keyof AskValues, number][]) {
    if (values[field].length > limit) errors[field] = `Keep this under ${limit.toLocaleString('en-US')} characters.`;
    else if (!isCleanText(values[field])) errors[field] = 'This contains characters that cannot be sent.';
  }
  if (!values.name) errors.name ??= 'Enter your name.';
  if (!values.email) errors.email ??= 'Enter your email address.';
  else if (!EMAIL.test(values.email)) errors.email ??= 'Enter an email address like name@example.com.';
  if (values.phone && !normalizePhone(values.phone))
    errors.phone ??= 'Enter a phone number like (214) 555-0100 or +1 214 555 0100, or leave it empty.';
  return errors;
}

/** "Mary Ann Smith" → first name "Mary Ann", last name "Smith"; one word is a first name. */
function splitName(name: string): { first_name: string; last_name?: string } {
  const at = name.lastIndexOf(' ');
  return at > 0 ? { first_name: name.slice(0, at), last_name: name.slice(at + 1) } : { first_name: name };
}

async function themeFor(deps: PageDeps, brand: string | null): Promise<Theme> {
  return themeOf(brand ? ((await firstLiveBrandPalette(deps, [brand])) ?? null) : null);
}

/** POST /l/:listing/ask. Throws 429 (AppError) when the visitor's address is over its limit. */
export async function submitAskForm(
  deps: Deps,
  ip: string,
  listing: string,
  body: Record<string, unknown>,
): Promise<AskOutcome> {
  await new AttemptLimiter(deps.database, deps.clock).claim([attemptKey('lead-form-ip', ip, ASK_FORM_POLICY)]);
  const appName = deps.config.appName;
  if (!isUuid(listing)) return { kind: 'page', status: 404, page: notFoundPage({ theme: themeOf(null), appName }) };
  const now = deps.clock.now();
  const token = verifyFormToken(deps.config, listing, one(body.token), now);
  if (!token.ok) {
    const expired = token.reason === 'expired';
    return {
      kind: 'page',
      status: 403,
      page: refusedPostPage({
        theme: themeOf(null),
        appName,
        heading: expired ? 'This form has expired' : 'This form could not be sent',
        text: expired
          ? 'The page was open for more than a day. Open the home’s page again and send your question from there.'
          : 'It did not come from this home’s page. Open the home’s page and send your question from there.',
        listingHref: listingPath(listing),
      }),
    };
  }
  const { brand } = token;
  const thanks = withBrand(deps, thanksPath(listing), listing, brand);
  // A trapped post looks sent: a bot learns nothing from the answer.
  if (one(body[HONEYPOT_FIELD]) !== '') return { kind: 'sent', location: thanks, trapped: 'honeypot' };
  if (now.getTime() / 1000 - token.issuedAt < MIN_FILL_SECONDS)
    return { kind: 'sent', location: thanks, trapped: 'too-fast' };

  const theme = await themeFor(deps, brand);
  const found = await findPublicListing(deps, listing);
  if (!found) return { kind: 'page', status: 404, page: notFoundPage({ theme, appName }) };
  const listingHref = withBrand(deps, listingPath(listing), listing, brand);
  const channel = await defaultLeadChannel(deps, brand);
  if (!channel)
    return {
      kind: 'page',
      status: 404,
      page: refusedPostPage({
        theme,
        appName,
        heading: 'Questions are closed',
        text: 'This page no longer takes questions. Call the listing agent instead.',
        listingHref,
      }),
    };

  const values = readValues(body);
  const again = (errors: AskErrors): AskOutcome => ({
    kind: 'page',
    status: 400,
    page: askAgainPage({
      theme,
      appName,
      address: fullAddressOf(found.record),
      listingHref,
      form: {
        action: askPath(listing),
        token: one(body.token),
        values,
        errors,
        brandName: theme.brand?.name ?? appName,
      },
    }),
  });
  const problems = problemsOf(values);
  if (Object.keys(problems).length > 0) return again(problems);
  try {
    await captureFromChannel(deps, ip, channel.id, {
      ...splitName(values.name),
      email: values.email,
      ...(values.phone ? { phone_number: values.phone } : {}),
      ...(values.message ? { note: values.message } : {}),
      lead_source: ASK_LEAD_SOURCE,
      referer_url: `${deps.config.webUrl}${listingHref}`,
      listing: { id: found.record.id },
    });
  } catch (error) {
    // The lead service's own checks (the same as the webhook's): said on the form, nothing was written.
    if (error instanceof AppError && error.code === 'Validation')
      return again({ form: `Your question could not be sent: ${error.message}.` });
    throw error;
  }
  return { kind: 'sent', location: thanks, trapped: null };
}

/** GET /l/:listing/ask/thanks: thanks in the brand's style, naming who will answer (the channel's owner). */
export async function showThanksPage(deps: PageDeps, listing: string, b: unknown): Promise<RenderedPage> {
  const brand = verifiedBrand(deps.config, listing, b);
  const theme = await themeFor(deps, brand);
  const channel = theme.brand ? await defaultLeadChannel(deps, theme.brand.id) : null;
  const owner = channel?.user ? await findPageUser(deps.db, channel.user) : undefined;
  const ownerName = [owner?.first_name, owner?.last_name].filter(Boolean).join(' ').trim();
  return thanksPage({
    theme,
    appName: deps.config.appName,
    agentName: ownerName || theme.brand?.name || 'the agent',
    listingHref: withBrand(deps, listingPath(listing), listing, theme.brand?.id ?? null),
  });
}
