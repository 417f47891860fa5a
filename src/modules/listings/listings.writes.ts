// The batch writes of ingest (lock the changing rows, upsert, replace open houses, record events): their statements
// are listings.repository.ts's; ingest and the events it derives name them from here.
export {
  insertEvents,
  lockChanging,
  replaceOpenHouses,
  upsertListings,
  type NewListingEvent,
  type StoredState,
  type UpsertedRow,
} from './listings.repository.js';
