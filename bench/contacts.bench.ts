// Contacts figures (issue 9): bulk create over HTTP (which also fills the brand), CSV import (parse + write, as
// `gable import contacts` does), `GET /contacts?q=<prefix>` p95 on the filled brand, `GET /contacts/:id` req/s.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import { parseContactsCsv } from '../src/modules/contacts/contacts.csv.js';
import { importContacts } from '../src/modules/contacts/contacts.service.js';
import type { FoundationFixture } from './foundation.bench.js';
import { cannon, closedLoop, type LoadResult } from './lib/load.js';

const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Levi',
  'Amelia',
  'Asher',
  'Harper',
  'James',
  'Evelyn',
  'Leo',
  'Luna',
  'Grayson',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
];
const TAGS = ['Buyer', 'Seller', 'Investor', 'Sphere', 'VIP'];

/** Contact n of a deterministic address book: names, one email and one phone each, a tag, a birthday. */
function person(n: number) {
  const first = FIRST[n % FIRST.length]!;
  const last = `${LAST[Math.floor(n / FIRST.length) % LAST.length]}${n >= 400 ? n : ''}`;
  const month = String((n % 12) + 1).padStart(2, '0');
  const day = String((n % 28) + 1).padStart(2, '0');
  return {
    first,
    last,
    email: `${first}.${last}.${n}@mail.example`.toLowerCase(),
    phone: `+1214${String(5550000 + (n % 10_000_000)).padStart(7, '0')}`,
    tag: TAGS[n % TAGS.length]!,
    birthday: `1980-${month}-${day}`,
  };
}

export interface ContactsFigures {
  results: LoadResult[];
  notes: string[];
}

export async function benchContacts(
  deps: Deps,
  url: string,
  fixture: FoundationFixture,
  options: { contacts: number; csvRows: number; requests: number },
): Promise<ContactsFigures> {
  const headers = { authorization: `Bearer ${fixture.accessToken}`, 'content-type': 'application/json' };
  const notes: string[] = [];

  // Bulk create: bodies of 1,000, two in flight.
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let first = next; first < options.contacts; first = next) {
      next += 1000;
      const contacts = Array.from({ length: Math.min(1000, options.contacts - first) }, (_, i) => {
        const p = person(first + i);
        return {
          first_name: p.first,
          last_name: p.last,
          emails: [p.email],
          phone_numbers: [p.phone],
          tags: [p.tag],
          birthday: p.birthday,
        };
      });
      const res = await fetch(`${url}/contacts`, { method: 'POST', headers, body: JSON.stringify({ contacts }) });
      if (!res.ok) throw new Error(`bulk create answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
  };
  await Promise.all([worker(), worker()]);
  const createSeconds = (performance.now() - started) / 1000;
  notes.push(
    `contacts: bulk create over HTTP (POST /contacts, 1,000 per body, 2 in flight): ${options.contacts} in ${createSeconds.toFixed(1)} s = ${Math.round(options.contacts / createSeconds)} contacts/s`,
  );

  // CSV import of a separate file (parse + validate + one transaction), into the same brand.
  const dir = mkdtempSync(join(tmpdir(), 'gable-bench-csv-'));
  try {
    const file = join(dir, 'contacts.csv');
    const rows = Array.from({ length: options.csvRows }, (_, i) => {
      const p = person(options.contacts + i);
      return `${p.first},${p.last},${p.email},${p.phone},${p.tag},${p.birthday}`;
    });
    writeFileSync(file, `First Name,Last Name,E-mail Address,Mobile Phone,Tags,Birthday\n${rows.join('\n')}\n`);
    const csvStarted = performance.now();
    const parsed = await parseContactsCsv(file);
    if (parsed.problems.length > 0) throw new Error(`CSV problems: ${JSON.stringify(parsed.problems.slice(0, 3))}`);
    const brand = await deps.db
      .selectFrom('memberships')
      .select('brand')
      .where('user', '=', fixture.userId)
      .executeTakeFirstOrThrow();
    await importContacts(
      deps,
      brand.brand,
      parsed.contacts.map((c) => c.fields),
    );
    const csvSeconds = (performance.now() - csvStarted) / 1000;
    notes.push(
      `contacts: CSV import (parse, validate, one transaction): ${options.csvRows} rows in ${csvSeconds.toFixed(1)} s = ${Math.round(options.csvRows / csvSeconds)} rows/s`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // As autovacuum would soon (contact_words has a low insert threshold): the planner needs the new rows'
  // statistics, and the index-only scans of search the visibility map of the words (ADR 0029).
  await sql`vacuum (analyze) contacts, contact_words`.execute(deps.db);

  const total = options.contacts + options.csvRows;
  const prefixes = ['oli', 'smi', 'emma', 'garc', 'noah j', 'mateo', 'ava.', 'levi', 'harp', 'gray'];
  const results: LoadResult[] = [];
  for (const concurrency of [1, 4]) {
    results.push(
      await closedLoop(
        `GET /contacts?q=<prefix> (${total} in the brand) [c=${concurrency}]`,
        url,
        (i) => ({
          method: 'GET',
          path: `/contacts?q=${encodeURIComponent(prefixes[i % prefixes.length]!)}&limit=20`,
          headers,
        }),
        {
          concurrency,
          requests: options.requests,
        },
      ),
    );
  }
  const one = await fetch(`${url}/contacts?limit=1`, { headers });
  const id = ((await one.json()) as { data: { id: string }[] }).data[0]!.id;
  results.push(
    await cannon({
      name: 'GET /contacts/:id',
      url: `${url}/contacts/${id}`,
      duration: 10,
      headers: { authorization: headers.authorization },
    }),
  );
  return { results, notes };
}
