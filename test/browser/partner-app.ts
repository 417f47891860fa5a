// A tiny partner application on a loopback port: it receives the redirect of the authorization flow,
// exchanges a code at POST /oauth2/token (with PKCE for the public client), calls GET /users/self with the
// token in the chosen brand and shows what it got. The implicit flow's page reads the fragment with inline JS.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PartnerClient {
  client_id: string;
  client_secret: string | null;
}

/** What the partner learnt from one redirect. */
export interface PartnerResult {
  state: string | null;
  error: string | null;
  brand: string | null;
  tokenResponse?: Record<string, unknown>;
  accessToken?: string;
  selfStatus?: number;
  selfEmail?: string;
}

export interface PartnerApp {
  origin: string;
  callbackUrl: string;
  implicitUrl: string;
  results: PartnerResult[];
  /** The client and PKCE verifier the authorization request with this `state` was sent for. */
  expect(state: string, client: PartnerClient, codeVerifier?: string): void;
  close(): Promise<void>;
}

const page = (title: string, body: string, script = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startPartnerApp(gableUrl: string): Promise<PartnerApp> {
  const pending = new Map<string, { client: PartnerClient; codeVerifier: string | undefined }>();
  const results: PartnerResult[] = [];

  const callSelf = async (result: PartnerResult) => {
    const res = await fetch(`${gableUrl}/users/self`, {
      headers: { authorization: `Bearer ${result.accessToken}`, 'x-rechat-brand': result.brand ?? '' },
    });
    result.selfStatus = res.status;
    if (res.ok) result.selfEmail = ((await res.json()) as { data: { email: string } }).data.email;
  };

  const show = (res: ServerResponse, result: PartnerResult) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const body = result.error
      ? `<h1 id="outcome">Not connected</h1><p>error: <span id="error">${escape(result.error)}</span></p>`
      : `<h1 id="outcome">Connected</h1><p>as <span id="email">${escape(result.selfEmail ?? '')}</span> in brand <span id="brand">${escape(result.brand ?? '')}</span></p>`;
    res.end(page('Partner', body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://partner');
    if (url.pathname === '/callback') {
      const state = url.searchParams.get('state');
      const result: PartnerResult = {
        state,
        error: url.searchParams.get('error'),
        brand: url.searchParams.get('brand'),
      };
      results.push(result);
      const expected = state ? pending.get(state) : undefined;
      if (!result.error && expected) {
        const form = new URLSearchParams({
          grant_type: 'authorization_code',
          code: url.searchParams.get('code') ?? '',
          redirect_uri: `${origin}/callback`,
          client_id: expected.client.client_id,
        });
        if (expected.client.client_secret) form.set('client_secret', expected.client.client_secret);
        if (expected.codeVerifier) form.set('code_verifier', expected.codeVerifier);
        const tokenRes = await fetch(`${gableUrl}/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        result.tokenResponse = (await tokenRes.json()) as Record<string, unknown>;
        result.accessToken = result.tokenResponse.access_token as string | undefined;
        if (result.accessToken) await callSelf(result);
      }
      return show(res, result);
    }
    if (url.pathname === '/implicit') {
      // The token is in the fragment, which never reaches a server: the page's script hands it to its backend.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const script = `const p=new URLSearchParams(location.hash.slice(1));history.replaceState(null,'',location.pathname);
fetch('/implicit/received',{method:'POST',body:p.toString()}).then(r=>r.text()).then(h=>{document.body.innerHTML=h;});`;
      return res.end(page('Partner', '<p id="outcome">Connecting…</p>', script));
    }
    if (url.pathname === '/implicit/received' && req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      const fragment = new URLSearchParams(text);
      const result: PartnerResult = {
        state: fragment.get('state'),
        error: fragment.get('error'),
        brand: fragment.get('brand'),
        tokenResponse: Object.fromEntries(fragment),
      };
      results.push(result);
      result.accessToken = fragment.get('access_token') ?? undefined;
      if (result.accessToken) await callSelf(result);
      const body = result.error
        ? `<h1 id="outcome">Not connected</h1><span id="error">${escape(result.error)}</span>`
        : `<h1 id="outcome">Connected</h1><span id="email">${escape(result.selfEmail ?? '')}</span>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(body);
    }
    res.writeHead(404).end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    callbackUrl: `${origin}/callback`,
    implicitUrl: `${origin}/implicit`,
    results,
    expect: (state, client, codeVerifier) => pending.set(state, { client, codeVerifier }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
