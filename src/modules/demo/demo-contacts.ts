// Demo contacts: a few hundred people in the demo brands, with birthdays and anniversaries spread over the
// year (for triggers), tags, phones, emails and Dallas-area addresses. Deterministic (a fixed PRNG seed and
// ids derived from the demo secret), so re-running writes nothing new; a contact someone deleted stays deleted.
import type { FirstStartStep } from '../../platform/feature.js';
import type { Deps } from '../../platform/deps.js';
import { SeededRandom } from '../listings/index.js';
import { findLiveBrand } from '../brands/index.js';
import { demoSecretsOf } from './demo-seed.js';
import {
  applyContactInput,
  EMPTY_CONTACT,
  type ContactFields,
  existingContactIds,
  insertContactsIn,
  insertLeadChannelOnce,
} from '../contacts/index.js';
import type { ContactInput } from '../contacts/contacts.schemas.js';

/** Demo brand (key of the demo world) → how many contacts, owned by which demo user. */
const DEMO_BOOKS = [
  { brand: 'downtown', count: 160, owner: 'dana.reyes@demo.example.com' },
  { brand: 'uptown', count: 120, owner: 'uma.patel@demo.example.com' },
  { brand: 'brokerage', count: 40, owner: 'admin@demo.example.com' },
] as const;

const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Mateo',
  'Sophia',
  'Elijah',
  'Isabella',
  'James',
  'Mia',
  'Lucas',
  'Amelia',
  'Benjamin',
  'Harper',
  'Daniel',
  'Evelyn',
  'Henry',
  'Camila',
  'Jackson',
  'Priya',
  'Wei',
  'Aaliyah',
  'Diego',
  'Fatima',
  'Hiroshi',
  'Chloé',
  'Kwame',
  'Ingrid',
  'Rafael',
];
const LAST = [
  'Johnson',
  'Nguyen',
  'Martinez',
  'Williams',
  'Brown',
  'Garcia',
  'Davis',
  'Rodriguez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Patel',
  'Kim',
  'Okafor',
  'Hernández',
  'Moore',
  'Jackson',
  'Lee',
  'Walker',
  'Young',
  'Allen',
  'Scott',
  'Chen',
  'Rossi',
  'Schmidt',
  "O'Connor",
];
const STREETS = [
  'Elm St',
  'Maple Ave',
  'Swiss Ave',
  'Gaston Ave',
  'Mockingbird Ln',
  'Lovers Ln',
  'Preston Rd',
  'Greenville Ave',
  'Ross Ave',
  'Live Oak St',
];
const CITIES: [string, string][] = [
  ['Dallas', '75204'],
  ['Dallas', '75206'],
  ['Dallas', '75214'],
  ['Plano', '75024'],
  ['Richardson', '75080'],
  ['Irving', '75038'],
];
const TAGS = [
  'Buyer',
  'Seller',
  'Investor',
  'Past Client',
  'Sphere',
  'Open House',
  'Relocation',
  'VIP',
  'First-time Buyer',
];
const COMPANIES = [
  'Texas Instruments',
  'Southwest Airlines',
  'AT&T',
  'Baylor Scott & White',
  'Dallas ISD',
  'Self-employed',
  'Toyota North America',
  'Comerica',
];
const AREA_CODES = ['214', '469', '972'];
const SOURCES = ['ExplicitlyCreated', 'CSV', 'Website', 'OpenHouse', 'Referral'];

const pad = (n: number) => String(n).padStart(2, '0');
/** Day `dayOfYear` (0–364) of a non-leap year as MM-DD. */
function monthDay(dayOfYear: number): string {
  const date = new Date(Date.UTC(2025, 0, 1 + (dayOfYear % 365)));
  return `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function demoContact(n: number, count: number, random: () => number): ContactInput {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const first = pick(FIRST);
  const last = pick(LAST);
  const [city, zip] = pick(CITIES);
  const local = `${first}.${last}`
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();
  // Spread over the year: contact n of `count` has its birthday about n × 365/count days into it, give or take.
  const birthdayDay = Math.floor((n * 365) / count + random() * 5) % 365;
  const birthYear = 1950 + Math.floor(random() * 50);
  const tags = TAGS.filter(() => random() < 0.2);
  return {
    first_name: first,
    last_name: last,
    emails: [`${local}${n}@example.com`],
    phone_numbers: [`+1${pick(AREA_CODES)}555${String(100 + (n % 100)).padStart(4, '0')}`],
    birthday: random() < 0.15 ? `0000-${monthDay(birthdayDay)}` : `${birthYear}-${monthDay(birthdayDay)}`,
    home_anniversary:
      random() < 0.4 ? `${2005 + Math.floor(random() * 20)}-${monthDay(Math.floor(random() * 365))}` : null,
    wedding_anniversary:
      random() < 0.3 ? `${1975 + Math.floor(random() * 45)}-${monthDay(Math.floor(random() * 365))}` : null,
    company: random() < 0.5 ? pick(COMPANIES) : null,
    tags: tags.length > 0 ? tags : ['Sphere'],
    address: [
      {
        type: 'Home',
        line1: `${100 + Math.floor(random() * 9800)} ${pick(STREETS)}`,
        city,
        state: 'TX',
        postcode: zip,
        country: 'US',
      },
    ],
    source_type: pick(SOURCES),
    touch_freq: random() < 0.5 ? pick([7, 14, 30, 90]) : null,
    unsubscribed: random() < 0.05,
  };
}

/**
 * Creates the demo contacts that are missing, and each book's website lead channel. Needs the demo world (brands and
 * users). Answers how many contacts per brand.
 */
export async function seedDemoContacts(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
): Promise<{ brand: string; contacts: number; created: number }[]> {
  const secrets = await demoSecretsOf(deps);
  const summary: { brand: string; contacts: number; created: number }[] = [];
  await deps.db.transaction().execute(async (trx) => {
    for (const [b, book] of DEMO_BOOKS.entries()) {
      const brand = secrets.id(`brand:${book.brand}`);
      const seeded = new SeededRandom(9001 + b);
      const random = () => seeded.next();
      const people: { id: string; fields: ContactFields }[] = [];
      for (let n = 0; n < book.count; n++) {
        const problems = {};
        people.push({
          id: secrets.id(`contact:${book.brand}:${n}`),
          fields: applyContactInput(EMPTY_CONTACT, demoContact(n, book.count, random), problems),
        });
        if (Object.keys(problems).length > 0)
          throw new Error(`demo contact ${book.brand}:${n} is invalid: ${JSON.stringify(problems)}`);
      }
      const taken = await existingContactIds(
        trx,
        people.map((p) => p.id),
      );
      const missing = people.filter((p) => !taken.has(p.id));
      if (missing.length > 0) {
        await insertContactsIn(
          trx,
          deps,
          brand,
          secrets.id(`user:${book.owner}`),
          missing.map((p) => p.fields),
          'demo_seed',
          missing.map((p) => p.id),
        );
      }
      // The brand's website channel, owned by the book's agent: the listing pages' "Ask about this home" form uses
      // a brand's oldest live channel (docs/public-pages.md), so the demo world's pages show it.
      await insertLeadChannelOnce(trx, {
        id: secrets.id(`lead-channel:${book.brand}`),
        brand,
        user_id: secrets.id(`user:${book.owner}`),
        title: 'Website',
        source_type: 'Website',
        at: deps.clock.now(),
      });
      summary.push({ brand, contacts: book.count, created: missing.length });
    }
  });
  return summary;
}

/** First start: an embedded server whose demo world exists gets its demo contacts (idempotent by derived ids). */
export const demoContactsStep: FirstStartStep = {
  name: 'demo-contacts',
  isNeeded: async (deps) =>
    (await findLiveBrand(deps.db, (await demoSecretsOf(deps)).id('brand:downtown'))) !== undefined,
  run: seedDemoContactsOnFirstStart,
};

async function seedDemoContactsOnFirstStart(deps: Deps): Promise<void> {
  const summary = await seedDemoContacts(deps);
  const created = summary.reduce((sum, s) => sum + s.created, 0);
  if (created > 0) deps.log.info({ created }, 'created the demo contacts');
}
