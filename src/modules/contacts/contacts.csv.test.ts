// CSV import: headers of common exports, --map, every bad row named by line with nothing imported.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runGable } from '../../../test/helpers/cli.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { parseContactsCsv, parseMappings } from './contacts.csv.js';
import { importContacts } from './contacts.service.js';
import { findContactsPage } from './contacts.repository.js';
import { prefixTerms } from '../../lib/search-words.js';

const t = useTestApp();
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gable-contacts-csv-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const OUTLOOK = [
  '\ufeffFirst Name,Last Name,Company,Job Title,E-mail Address,E-mail 2 Address,Mobile Phone,Home Phone,Birthday,Anniversary,Home Street,Home City,Home State,Home Postal Code,Categories,Notes',
  'Maria,Garcia,Garcia Homes,Broker,maria@garcia.example,MGarcia@Work.example,(214) 555-0101,,5/17/1980,0/0/00,1 Oak Ln,Dallas,TX,75201,Buyer;VIP,likes gardens',
  '"O\'Brien, Jr.",Sean,,,sean@example.com,,+353 1 555 0101,214-555-0102,2/29,,,,,,,',
  ',,,,,,,,,,,,,,,',
].join('\r\n');

describe('parsing', () => {
  it('maps Outlook headers, US dates, several emails and phones, the address and categories', async () => {
    const parsed = await parseContactsCsv(write('outlook.csv', OUTLOOK));
    expect(parsed.problems).toEqual([]);
    expect(parsed.columns.find((c) => c.column === 'Notes')?.field).toBeNull();
    expect(parsed.contacts.map((c) => c.line)).toEqual([2, 3]);
    expect(parsed.contacts[0]?.fields).toMatchObject({
      first_name: 'Maria',
      last_name: 'Garcia',
      company: 'Garcia Homes',
      job_title: 'Broker',
      emails: ['maria@garcia.example', 'MGarcia@Work.example'],
      phone_numbers: ['+12145550101'],
      birthday: '1980-05-17',
      wedding_anniversary: null,
      address: [
        { line1: '1 Oak Ln', city: 'Dallas', state: 'TX', postcode: '75201', full: '1 Oak Ln, Dallas, TX 75201' },
      ],
      tags: ['Buyer', 'VIP'],
      source_type: 'CSV',
    });
    expect(parsed.contacts[1]?.fields).toMatchObject({
      first_name: "O'Brien, Jr.",
      phone_numbers: ['+35315550101', '+12145550102'],
      birthday: '0000-02-29',
    });
  });

  it('maps Google-style and custom columns with --map', async () => {
    const file = write(
      'google.csv',
      'Given Name,Family Name,E-mail 1 - Value,Phone 1 - Value,Group Membership,Spouse\nAna,Lee,ana@example.com ::: ana@work.example,+1 972 555 0100,* myContacts ::: Friends,Ben\n',
    );
    const parsed = await parseContactsCsv(file, parseMappings(['Spouse=partner_first_name', 'Group Membership=tags']));
    expect(parsed.problems).toEqual([]);
    expect(parsed.contacts[0]?.fields).toMatchObject({
      first_name: 'Ana',
      last_name: 'Lee',
      emails: ['ana@example.com', 'ana@work.example'],
      phone_numbers: ['+19725550100'],
      tags: ['myContacts', 'Friends'],
      partner_first_name: 'Ben',
    });
    expect(() => parseMappings(['Spouse=password'])).toThrow(/field one of/);
  });

  it('names every bad row by line and field', async () => {
    const file = write(
      'bad.csv',
      `first_name,email,phone,birthday,tags\nOk,ok@example.com,,1990-01-01,a\nBad,not-an-email,,2025-02-30,b\nWorse,,banana,,c\nNul,x@example.com,,,a\u0000b\n${'L'.repeat(201)},,,,\n`,
    );
    const parsed = await parseContactsCsv(file);
    expect(parsed.contacts.map((c) => c.line)).toEqual([2]);
    expect(parsed.problems).toEqual([
      { line: 3, errors: { 'emails.0': ['must be an email address'], birthday: [expect.any(String)] } },
      { line: 4, errors: { 'phone_numbers.0': [expect.any(String)] } },
      { line: 5, errors: { 'tags.0': ['must not contain the NUL character'] } },
      { line: 6, errors: { first_name: ['must be at most 200 characters'] } },
    ]);
  });
});

describe('importing', () => {
  it('writes the contacts of a good file into the brand with their events, in one transaction', async () => {
    const brand = (await createBrand(t.deps)).id;
    const parsed = await parseContactsCsv(write('good.csv', OUTLOOK));
    const progress: number[] = [];
    expect(
      await importContacts(
        t.deps,
        brand,
        parsed.contacts.map((c) => c.fields),
        (done) => progress.push(done),
      ),
    ).toBe(2);
    expect(progress).toEqual([2]);
    const rows = await t.deps.db
      .selectFrom('contacts')
      .select(['display_name', 'created_for', 'source_type'])
      .where('brand', '=', brand)
      .orderBy('sort_field')
      .execute();
    expect(rows).toEqual([
      { display_name: 'Maria Garcia', created_for: 'import_csv', source_type: 'CSV' },
      { display_name: "O'Brien, Jr. Sean", created_for: 'import_csv', source_type: 'CSV' },
    ]);
    const events = await t.deps.db.selectFrom('domain_events').select('event').where('brand', '=', brand).execute();
    expect(events).toEqual([{ event: 'create' }, { event: 'create' }]);
    // their search words, written once at the end of the import (deferred)
    const search = (q: string) =>
      findContactsPage(t.deps.db, {
        brand,
        words: prefixTerms(q),
        tags: [],
        order: 'display_name',
        descending: false,
        start: 0,
        limit: 10,
      });
    const found = await search('garc');
    expect([found.total, found.rows.map((r) => r.display_name)]).toEqual([1, ['Maria Garcia']]);
    expect((await search('brien')).total).toBe(1);
  });

  it('the command refuses a bad file before opening any database', async () => {
    const file = write('cli-bad.csv', 'first_name,birthday\nA,2025-02-30\n');
    const failure = await runGable(['import', 'contacts', file, '--brand', '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e'], {
      DATA_DIR: join(dir, 'untouched'),
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('line 2: birthday');
    expect(failure?.stderr).toContain('1 bad row(s): nothing imported');
    expect(existsSync(join(dir, 'untouched'))).toBe(false);
  }, 60_000);
});
