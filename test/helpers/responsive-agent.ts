// The second agent of the responsiveness scenario (responsive-server.ts): while the campaigns and triggers email
// everyone, this agent's saved searches match a feed's new listings (the match jobs write a notification per match)
// and the agent moves to another time zone, which re-plans a contact trigger per contact in that one request.
// Its own user, so neither touches the poller's user or the brand triggers (planned in the brand user's zone).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../src/platform/deps.js';
import { clientHeaders, sampleListing } from './listings.js';
import { addMembership, bearer, createUser, tokenFor } from './factories.js';

/** Searches the agent saves; every new listing matches each of them. */
export const AGENT_SEARCHES = 20;
/** Local time of day of the agent's triggers, in seconds after midnight: re-planned, they keep it in the new zone. */
export const AGENT_TRIGGER_TIME = 10 * 3600;
const FEED_BATCH = 500;
const MLS = 'RESPONSIVE';

export interface AgentWorld {
  user: string;
  token: string;
  feed: Record<string, string>;
  triggers: number;
  /** A zone whose offset differs from the agent's: the re-planned triggers all move. */
  newZone: string;
}

export interface AgentWork {
  /** How long the PATCH /users/self that re-planned every trigger took (ms). */
  zoneChangeMs: number;
  /** Listings ingested; the agent should get listings × AGENT_SEARCHES notifications. */
  listings: number;
  expectedNotifications: number;
}

/** A date in the month six months from `month`: the agent's triggers never fire during the run. */
export const farAnniversary = (month: number) => `2000-${String(((month + 5) % 12) + 1).padStart(2, '0')}-15`;

/**
 * Written before the server starts: the agent, its searches around the sample listing's point and a trigger per
 * contact (their home anniversaries, see farAnniversary) from one template campaign.
 */
export async function prepareAgent(
  deps: Deps,
  app: FastifyInstance,
  options: { brand: string; zone: string; contacts: readonly string[] },
): Promise<AgentWorld> {
  const agent = (await createUser(deps, { first_name: 'Agent', timezone: options.zone })).id;
  await addMembership(deps, agent, options.brand, ['CRM', 'Marketing']);
  const token = (await tokenFor(deps, agent)).access_token;
  const headers = { ...bearer(token), 'x-rechat-brand': options.brand };
  const post = async (url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, headers, payload });
    if (res.statusCode !== 200) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    return (res.json() as { data: { id: string } }).data.id;
  };
  const d = 0.05;
  const ring = [
    [-d, -d],
    [d, -d],
    [d, d],
    [-d, d],
    [-d, -d],
  ].map(([x, y]) => ({ longitude: -96.81 + x!, latitude: 32.81 + y! }));
  for (let i = 0; i < AGENT_SEARCHES; i++)
    await post(`/brands/${options.brand}/saved-searches`, { title: `Around Maple Ave ${i}`, points: ring });
  const template = await post('/emails', {
    subject: 'Happy home anniversary',
    html: '<p>Another year.</p>',
    individual: true,
    due_at: Date.now() / 1000 + 365 * 86400,
    to: [{ recipient_type: 'Email', email: 'template@example.com' }],
  });
  for (const contact of options.contacts) {
    await post('/triggers', {
      event_type: 'home_anniversary',
      action: 'schedule_email',
      wait_for: 0,
      time: AGENT_TRIGGER_TIME,
      contact,
      campaign: template,
    });
  }
  return {
    user: agent,
    token,
    feed: await clientHeaders(deps),
    triggers: options.contacts.length,
    newZone: options.zone === 'Pacific/Auckland' ? 'Europe/Berlin' : 'Pacific/Auckland',
  };
}

/** During the run: a feed sends `listings` new listings in batches of 500, and the agent changes time zone. */
export async function runAgentWork(baseUrl: string, world: AgentWorld, listings: number): Promise<AgentWork> {
  const send = async (method: string, path: string, headers: Record<string, string>, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  for (let i = 0; i < listings; i += FEED_BATCH) {
    const batch = Array.from({ length: Math.min(FEED_BATCH, listings - i) }, (_, j) => sampleListing(`R-${i + j}`));
    await send('POST', `/mls/${MLS}/listings`, world.feed, batch);
  }
  const started = performance.now();
  await send('PATCH', '/users/self', bearer(world.token), { timezone: world.newZone });
  return {
    zoneChangeMs: Math.round(performance.now() - started),
    listings,
    expectedNotifications: listings * AGENT_SEARCHES,
  };
}

/** The agent's notifications so far (the feed's `info.total`). */
export async function agentNotifications(baseUrl: string, world: AgentWorld): Promise<number> {
  const res = await fetch(`${baseUrl}/notifications?limit=1`, { headers: bearer(world.token) });
  return res.ok ? ((await res.json()) as { info: { total: number } }).info.total : -1;
}
