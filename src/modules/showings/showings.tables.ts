// Kysely type of the showings table (migration 2026-11-24T0110-showings).
import type { Generated } from 'kysely';
import type { Timestamp } from '../../db/types.js';

export interface ShowingsTable {
  id: Generated<string>;
  brand: string;
  listing: string;
  contact: string | null;
  agent: string;
  start_time: Timestamp;
  end_time: Timestamp;
  status: string;
  notes: string | null;
  feedback: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ShowingsTables {
  showings: ShowingsTable;
}
