// The words of contact search (`GET /contacts?q=`, docs/adr/0029-contact-search-words.md): one row per word of a
// live contact, with its brand and its +display_name key, in a btree that answers a word prefix with an
// index-only range scan. The GIN index on `search_tsv` answered the same prefix with one heap page per matching
// contact (a 3-letter prefix matches ~5 % of a 120,000-contact brand: ~6,000 pages per request); it is dropped.
//
// `search_tsv` stays the source: the words of a contact are its lexemes (tsvector_to_array), written by the one
// writer (contacts.repository.ts). Triggers keep the table in the transaction of every change, whoever writes the
// row: one statement-level trigger per event, with transition tables, so a bulk insert of 1,000 contacts writes
// their words in one statement, in index order (measured: 140,000 words inserted in index order took 0.64 s,
// in contact order 1.5 s — each insert then lands on another leaf page). A bulk import of many statements in one
// transaction (`gable import contacts`) sets `gable.defer_contact_words` for the transaction and writes all its
// words in one sorted statement before it commits (contacts.repository.ts deferContactWords / fillContactWords):
// 20,000 contacts in 500-row statements took 3.1–3.9 s with the words written per statement, 2.5–3.0 s deferred,
// 3.2–3.3 s with the GIN index instead (PostgreSQL 15, loaded 2-core machine, back to back). Only live contacts have words. An update rewrites a contact's words only when
// its words, sort key, brand or liveness changed (a touch does not). The update and delete statements run through
// EXECUTE so each is planned with the real row counts of its transition tables (a cached plan made for one bulk
// change could scan the whole table for a later single-row one).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contact_words (
      brand uuid not null,
      word text collate "C" not null,
      sort_field text collate "C" not null,
      contact uuid not null
    ) with (autovacuum_vacuum_insert_scale_factor = 0.02);

    insert into contact_words (brand, word, sort_field, contact)
    select c.brand, w.word, c.sort_field, c.id
    from contacts c, unnest(tsvector_to_array(c.search_tsv)) as w(word)
    where c.deleted_at is null;

    create index contact_words_search_idx on contact_words (brand, word, sort_field, contact);
    drop index contacts_search_idx;

    create function contact_words_apply() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        execute $q$
          delete from contact_words w
          using old_rows o
          where o.deleted_at is null
            and w.brand = o.brand and w.word = any(tsvector_to_array(o.search_tsv)) and w.sort_field = o.sort_field and w.contact = o.id
        $q$ || case when tg_op = 'UPDATE' then $q$
            and not exists (
              select 1 from new_rows n
              where n.id = o.id and n.deleted_at is null and n.brand = o.brand and n.sort_field = o.sort_field and n.search_tsv = o.search_tsv
            )
        $q$ else '' end;
      end if;
      if tg_op = 'INSERT' then
        -- A bulk import defers the words of its inserts to one sorted statement at its end (fillContactWords).
        if current_setting('gable.defer_contact_words', true) = 'on' then
          return null;
        end if;
        insert into contact_words (brand, word, sort_field, contact)
        select n.brand, w.word, n.sort_field, n.id
        from new_rows n, unnest(tsvector_to_array(n.search_tsv)) as w(word)
        where n.deleted_at is null
        order by 1, 2, 3, 4;
      elsif tg_op = 'UPDATE' then
        execute $q$
          insert into contact_words (brand, word, sort_field, contact)
          select n.brand, w.word, n.sort_field, n.id
          from new_rows n, unnest(tsvector_to_array(n.search_tsv)) as w(word)
          where n.deleted_at is null
            and not exists (
              select 1 from old_rows o
              where o.id = n.id and o.deleted_at is null and o.brand = n.brand and o.sort_field = n.sort_field and o.search_tsv = n.search_tsv
            )
          order by 1, 2, 3, 4
        $q$;
      end if;
      return null;
    end
    $$;

    create trigger contact_words_insert after insert on contacts
      referencing new table as new_rows for each statement execute function contact_words_apply();
    create trigger contact_words_update after update on contacts
      referencing old table as old_rows new table as new_rows for each statement execute function contact_words_apply();
    create trigger contact_words_delete after delete on contacts
      referencing old table as old_rows for each statement execute function contact_words_apply();
  `.execute(db);
}
