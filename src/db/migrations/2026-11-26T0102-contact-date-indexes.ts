// Brand triggers look up a brand's contacts by the month and day of a date (`MM-DD` of the ISO text,
// brand-triggers.repository.ts): one partial index per date column, holding only the contacts that have it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index contacts_birthday_day_idx on contacts (brand, substr(birthday, 6)) where deleted_at is null and birthday is not null;
    create index contacts_home_anniversary_day_idx on contacts (brand, substr(home_anniversary, 6)) where deleted_at is null and home_anniversary is not null;
    create index contacts_wedding_anniversary_day_idx on contacts (brand, substr(wedding_anniversary, 6)) where deleted_at is null and wedding_anniversary is not null;
  `.execute(db);
}
