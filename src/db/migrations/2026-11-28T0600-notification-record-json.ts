// The notification's own part of its feed record (spec §2.10), kept as JSON text on the row: GET /notifications
// writes its page from these (src/modules/notifications/feed-page.repository.ts), adding each recipient's state and
// the embedded records, instead of writing 34 fields of 20 rows as JSON on every poll (measured with pgbench on
// the page statement: 0.13 ms with row_to_json per read, of which the JSON was 0.07 ms). A notification is written
// once and read by every poll of every recipient, so it is written as JSON once.
//
// A trigger writes `record_json` on every insert and update, whoever writes the row. Its fields are those of the
// TypeScript presenter (notifications.presenter.ts) except the recipient's (`seen`, `seen_at`, `acked_at`,
// `delivered_at`) and the embedded records (`objects`, `subjects`); feed-json.test.ts holds the two to one answer,
// so a change of the record that is made in one place only fails there. Epoch seconds keep the milliseconds a JS
// Date keeps (floor): see `epoch` in feed-page.repository.ts for why date_part and the 0.0005.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table notifications add column record_json text;

    create function notifications_record_json() returns trigger language plpgsql as $$
    begin
      new.record_json := (
        select row_to_json(r)::text from (
          select new.id, 'notification' as type, new.action, new.notification_type, new.message, new.title,
            new.object, new.object_class, new.subject, new.subject_class,
            new.auxiliary_object, new.auxiliary_object_class, new.auxiliary_subject, new.auxiliary_subject_class,
            new.extra_object_class, new.extra_subject_class, new.room, new.recommendation, null::uuid[] as recommendations,
            new.exclude, new.data, new.sound, new.app, new.transports, new.phone_number,
            floor(date_part('epoch', new.created_at) * 1000 + 0.0005) / 1000 as created_at,
            floor(date_part('epoch', new.updated_at) * 1000 + 0.0005) / 1000 as updated_at,
            floor(date_part('epoch', new.deleted_at) * 1000 + 0.0005) / 1000 as deleted_at
        ) r
      );
      return new;
    end
    $$;

    create trigger notifications_record_json before insert or update on notifications
      for each row execute function notifications_record_json();

    -- Existing rows: an update of each writes its record (the trigger); then no row is without one.
    update notifications set id = id;
    alter table notifications alter column record_json set not null;
  `.execute(db);
}
