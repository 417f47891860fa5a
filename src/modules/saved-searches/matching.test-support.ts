// Test support for matching tests: a square ring around a point, and saving a search through the API.
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';

export const around = (lon: number, lat: number, d = 0.05) => [
  { longitude: lon - d, latitude: lat - d },
  { longitude: lon + d, latitude: lat - d },
  { longitude: lon + d, latitude: lat + d },
  { longitude: lon - d, latitude: lat + d },
  { longitude: lon - d, latitude: lat - d },
];

/** Saves a search of the owner's brand (POST …/saved-searches) and answers its id. */
export async function saveSearch(
  app: FastifyInstance,
  owner: { brand: string; bare: Record<string, string> },
  criteria: object,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/brands/${owner.brand}/saved-searches`,
    headers: owner.bare,
    payload: criteria,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}
