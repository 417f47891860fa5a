// Per-recipient feed counters: `GET /notifications` (info.total, info.new), the stream's unseen count and every
// push's badge read one row instead of counting the feed (10,000 notifications took ~3.5 ms per read, twice).
//
// Triggers on notification_recipients keep them, in the transaction of the change, whoever writes the rows
// (notify(), seen, delete, a bulk insert): one statement-level trigger per event, with transition tables, so a
// statement that touches 10,000 rows updates each recipient's counter once. A row counts in `total` while its
// `deleted_at` is null, in `unseen` while its `seen_at` is null too.
//
// Concurrency: the delta of an UPDATE is computed from the row versions the statement actually changed. Two
// transactions marking the same row seen: the second waits for the first's row lock and then updates (or, with
// `seen_at is null` in its WHERE, skips) the version the first committed, which is already seen, so its delta is
// 0: never a double decrement. The counter row itself is changed with `unseen + delta` under its row lock, so
// concurrent deltas add up. An insert of several recipients (one notify()) upserts their counters in user order,
// so two such statements never wait on each other in a cycle. The counter stays locked until the transaction
// ends: a recipient's feed writes queue behind each other (not other recipients').
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notification_counts (
      "user" uuid primary key references users (id) on delete cascade,
      total bigint not null default 0 check (total >= 0),
      unseen bigint not null default 0 check (unseen >= 0 and unseen <= total)
    );

    create function notification_counts_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into notification_counts as c ("user", total, unseen)
        select "user", count(*) filter (where deleted_at is null), count(*) filter (where deleted_at is null and seen_at is null)
        from new_rows group by "user" order by "user"
        on conflict ("user") do update set total = c.total + excluded.total, unseen = c.unseen + excluded.unseen;
      elsif tg_op = 'UPDATE' then
        update notification_counts as c set total = c.total + d.total, unseen = c.unseen + d.unseen
        from (
          select n."user",
            sum((n.deleted_at is null)::int - (o.deleted_at is null)::int) as total,
            sum((n.deleted_at is null and n.seen_at is null)::int - (o.deleted_at is null and o.seen_at is null)::int) as unseen
          from new_rows n join old_rows o on o.notification = n.notification and o."user" = n."user"
          group by n."user"
          order by n."user"
        ) d
        where c."user" = d."user" and (d.total <> 0 or d.unseen <> 0);
      else
        update notification_counts as c set total = c.total - d.total, unseen = c.unseen - d.unseen
        from (
          select "user", count(*) filter (where deleted_at is null) as total, count(*) filter (where deleted_at is null and seen_at is null) as unseen
          from old_rows group by "user" order by "user"
        ) d
        where c."user" = d."user";
      end if;
      return null;
    end
    $$;

    create trigger notification_counts_insert after insert on notification_recipients
      referencing new table as new_rows for each statement execute function notification_counts_apply();
    create trigger notification_counts_update after update on notification_recipients
      referencing old table as old_rows new table as new_rows for each statement execute function notification_counts_apply();
    create trigger notification_counts_delete after delete on notification_recipients
      referencing old table as old_rows for each statement execute function notification_counts_apply();

    -- The feeds that exist already (a row for every recipient, even of a feed emptied by deletes).
    insert into notification_counts ("user", total, unseen)
    select "user", count(*) filter (where deleted_at is null), count(*) filter (where deleted_at is null and seen_at is null)
    from notification_recipients group by "user";
  `.execute(db);
}
