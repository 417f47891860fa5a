// The document is as strict as the server (issue 34 row 10): for every operation of the app's own OpenAPI document,
// a request whose every field (optional ones too) holds a plain value the schema allows (test/fuzz/valid-input.ts)
// is not refused with a 400 that names one of those fields, unless the rule is one a schema cannot state (listed
// below with the reason). A uuid, an email, a time zone, one of some words, a length: those belong in the schema,
// where client generators and validators read them. Each refused field is dropped and the request sent again, so
// one run names every such field of an operation. Deterministic: no random draws.
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/platform/openapi.js';
import { useTestApp } from '../helpers/app.js';
import { injectSettled, isStreamingOperation } from '../helpers/inject.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../helpers/factories.js';
import { clientHeaders } from '../helpers/listings.js';
import type { Operation, Parameter } from './cases.js';
import { jsonBodySchema, validValue, type ValidInputSchema } from './valid-input.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * `METHOD /path field` → why the server refuses a schema-valid value there: rules over other fields, the database or
 * the text's meaning, which JSON Schema cannot state. Each is documented in the operation's description.
 */
const RULES_NO_SCHEMA_STATES: Record<string, string> = {
  'GET /oauth2/auth': 'client_id must name a registered client and redirect_uri one of its URIs (the database)',
  'POST /oauth2/token grant_type':
    'an unknown grant must answer RFC 6749 `unsupported_grant_type`, which a schema refusal (`invalid_request`) would not',
  'POST /users/self/mfa/verify token': 'the code of the authenticator at this time (TOTP)',
  'DELETE /users/self/mfa token': 'the code of the authenticator at this time (TOTP)',
  'PATCH /users/self/password new_password':
    'at least 8 UTF-16 code units, as every password check counts them; JSON Schema counts code points',
  'POST /brands/{brand}/listings points': 'the ring must close (first position = last)',
  'POST /valerts points': 'the ring must close (first position = last)',
  'POST /valerts/count points': 'the ring must close (first position = last)',
  'POST /brands/{brand}/saved-searches points': 'the ring must close (first position = last)',
  'POST /leads metadata.lead_channel': 'a lead channel of this brand (the database)',
  'GET /saved-searches/unsubscribe token': 'the signature of this unsubscribe link',
  'POST /saved-searches/unsubscribe token': 'the signature of this unsubscribe link',
  'GET /mail/open/{token}': 'the signature of the tracked link',
  'GET /mail/click/{token}': 'the signature of the tracked link',
  'GET /mail/unsubscribe/{token}': 'the signature of the tracked link',
  'POST /mail/unsubscribe/{token}': 'the signature of the tracked link',
  'POST /emails extmail_credential': 'a mailbox the user linked in this brand (the database)',
  'POST /notifications/tokens app': 'one of the push apps this server is configured with (PUSH_APPS), not a constant',
  'POST /notification/tokens app': 'one of the push apps this server is configured with (PUSH_APPS), not a constant',
  'DELETE /notifications/tokens/{app}/{id} app':
    'one of the push apps this server is configured with (PUSH_APPS), not a constant',
};

/** An error body; a page (the authorization pages answer HTML) stands as its message. */
function parseError(text: string): { message?: string; attributes?: Record<string, string[]> } {
  try {
    return JSON.parse(text) as { message?: string; attributes?: Record<string, string[]> };
  } catch {
    return { message: `(a page) ${text.replace(/\s+/g, ' ').slice(0, 120)}` };
  }
}

interface Answer {
  statusCode: number;
  body: string;
}

describe('the document states the rules the server applies', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let fixtures: Record<string, string>;
  let user: string;
  let client: Record<string, string>;

  beforeAll(async () => {
    const brand = await createBrand(t.deps, { name: 'Honest Realty' });
    const member = await createUser(t.deps);
    await addMembership(t.deps, member.id, brand.id);
    user = member.id;
    client = await clientHeaders(t.deps);
    fixtures = { brand: brand.id, uuid: '00000000-0000-4000-8000-000000000002', mls: 'HONEST' };
  });

  it(
    'refuses no schema-valid field of any operation for a reason its schema does not state',
    { timeout: 600_000 },
    async () => {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, Operation>>;
      };
      const clientRoutes = new Set(
        routeTable(t.app)
          .filter((route) => route.auth === 'client')
          .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`),
      );
      const refusals: string[] = [];
      let operations = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const method of METHODS) {
          const operation = item[method];
          if (!operation) continue;
          const route = `${method.toUpperCase()} ${path}`;
          operations++;
          // A fresh token per operation: one that signs out or revokes must not change what the next one sees.
          const headers = clientRoutes.has(route)
            ? client
            : { ...bearer(await tokenFor(t.deps, user)), 'x-rechat-brand': fixtures.brand! };
          const omitted = new Set<string>();
          for (let round = 0; round < 12; round++) {
            const answer = await send(method, path, operation, headers, omitted, isStreamingOperation(operation));
            if (answer.statusCode !== 400) break;
            const body = parseError(answer.body);
            const named = Object.entries(body.attributes ?? {}).filter(
              // Leaving out a field the schema requires is refused as the schema says: not a finding.
              ([field, messages]) => !omitted.has(field) && !messages.every((m) => m === 'is required'),
            );
            if (named.length === 0) {
              if ((round === 0 || !body.attributes) && !(route in RULES_NO_SCHEMA_STATES))
                refusals.push(`${route}: 400 ${body.message ?? ''}`);
              break;
            }
            for (const [field, messages] of named) {
              const at = `${route} ${field}`;
              if (!(at in RULES_NO_SCHEMA_STATES)) refusals.push(`${at}: ${messages.join('; ')}`);
              omitted.add(field);
            }
          }
        }
      }
      expect(refusals).toEqual([]);
      expect(operations).toBeGreaterThan(100);
    },
  );

  async function send(
    method: string,
    path: string,
    operation: Operation,
    authHeaders: Record<string, string>,
    omitted: ReadonlySet<string>,
    streaming: boolean,
  ): Promise<Answer> {
    const parameters = operation.parameters ?? [];
    const text = (parameter: Parameter) => {
      const value =
        fixtures[parameter.name] ?? validValue(parameter.schema as ValidInputSchema, fixtures, parameter.name);
      return [value].flat().map((v) => String(v));
    };
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(text(parameters.find((p) => p.in === 'path' && p.name === name)!)[0]!),
    );
    const query = new URLSearchParams();
    for (const parameter of parameters.filter((p) => p.in === 'query' && !omitted.has(p.name)))
      for (const value of text(parameter)) query.append(parameter.name, value);
    const headers: Record<string, string> = { ...authHeaders };
    for (const parameter of parameters.filter((p) => p.in === 'header' && !omitted.has(p.name)))
      headers[parameter.name] = text(parameter)[0]!;
    const bodySchema = jsonBodySchema(operation);
    const options = {
      method: method.toUpperCase() as 'POST',
      url: query.size > 0 ? `${url}?${query}` : url,
      headers: bodySchema ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(bodySchema ? { payload: JSON.stringify(validValue(bodySchema, fixtures, '', omitted)) } : {}),
    };
    const res = streaming ? await injectSettled(t.app, options) : await t.app.inject(options);
    return { statusCode: res.statusCode, body: res.body };
  }
});
