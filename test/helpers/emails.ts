// Test support for email campaigns: a marketer with a token in a brand, contacts made through the API.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Deps } from '../../src/platform/deps.js';
import { crmUser } from './contacts.js';

export async function marketer(deps: Deps, options: { brand?: string; acl?: string[] } = {}) {
  return crmUser(deps, { ...options, acl: options.acl ?? ['CRM', 'Marketing'] });
}

export async function createContact(
  app: FastifyInstance,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/contacts', headers, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

export async function postCampaign(
  app: FastifyInstance,
  headers: Record<string, string>,
  body: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: '/emails', headers, payload: body });
}

export const to = (email: string) => ({ recipient_type: 'Email', email });
