// The agent record (spec 2.3), embedded in users (`user.agents`) and in listings (`list_agent`, `selling_agent`).
import type { Agent } from './users.schemas.js';

/** Every column of the agent record, as repositories select them (timestamps come as epoch seconds). */
export const AGENT_RECORD_COLUMNS = [
  'id',
  'email',
  'mlsid',
  'fax',
  'full_name',
  'first_name',
  'last_name',
  'middle_name',
  'phone_number',
  'nar_number',
  'office_mui',
  'status',
  'office_mlsid',
  'work_phone',
  'generational_name',
  'mls_unique_id',
  'mls',
  'license_number',
  'designation',
  'nrds',
  'office_id',
] as const;

export type AgentRow = Omit<Agent, 'type' | 'secret_questions'>;

// We keep no agent secret questions; the field exists for clients that render three masked rows.
const MASKED_SECRET_QUESTIONS = ['********', '********', '********'];

export function toAgentRecord(row: AgentRow): Agent {
  return { ...row, type: 'agent', secret_questions: [...MASKED_SECRET_QUESTIONS] };
}
