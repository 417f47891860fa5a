// The notification's part of its feed record is kept OPEN: its JSON without the closing brace (`record_head`,
// formerly `record_json` of migration 2026-11-28T0600). The feed page appends each recipient's state and the
// embedded-record markers to it and closes it, so it had to cut the brace off on every read: `left(text, -1)`
// counts the characters of the whole record (UTF-8), twice, and on a page of 20 that was a quarter of the page
// statement's CPU (backend CPU per execution, the same page from the same rows: 205 µs → 155 µs). Cut once,
// when the row is written, it costs nothing on a read.
//
// `feed_epoch` is the one SQL statement of the feed's epoch seconds (the triggers of the notification's and the
// recipient's parts use it): the milliseconds a JS Date keeps (the presenter's `epochSeconds`), floored. In double
// precision, not numeric (`extract` and numeric arithmetic cost twice as much). date_part is the exact
// microseconds divided by 10^6, rounded once, so the milliseconds it gives are off by less than 0.00025 (for dates
// before 2100), and a whole millisecond is 0.001 from the next: adding 0.0005 before the floor makes it exact
// (feed-json.test.ts checks it over a thousand instants). Immutable: the epoch of an instant depends on no setting.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function feed_epoch(at timestamptz) returns float8 language sql immutable parallel safe
      return floor(date_part('epoch', at) * 1000 + 0.0005) / 1000;

    alter table notifications rename column record_json to record_head;

    create or replace function notifications_record_json() returns trigger language plpgsql as $$
    begin
      new.record_head := left((
        select row_to_json(r)::text from (
          select new.id, 'notification' as type, new.action, new.notification_type, new.message, new.title,
            new.object, new.object_class, new.subject, new.subject_class,
            new.auxiliary_object, new.auxiliary_object_class, new.auxiliary_subject, new.auxiliary_subject_class,
            new.extra_object_class, new.extra_subject_class, new.room, new.recommendation, null::uuid[] as recommendations,
            new.exclude, new.data, new.sound, new.app, new.transports, new.phone_number,
            feed_epoch(new.created_at) as created_at, feed_epoch(new.updated_at) as updated_at,
            feed_epoch(new.deleted_at) as deleted_at
        ) r
      ), -1);
      return new;
    end
    $$;

    -- Existing rows: an update of each writes its open record (the trigger, now cutting the brace).
    update notifications set id = id;
  `.execute(db);
}
