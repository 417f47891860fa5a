// A loopback Web Push service (RFC 8030) that does what a real one checks: the VAPID JWT (RFC 8292: ES256 over
// the `k` key it expects, `aud` = its origin, `exp` within 24 h, a mailto:/https: `sub`) and the payload, which it
// decrypts with the subscription's private keys (RFC 8291, aes128gcm) — written here with node:crypto from the
// RFCs, independently of the library the server encrypts with. Each subscription can be told to answer a list of
// statuses first (503, 429 with Retry-After, 410…) before it accepts.
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSubscription {
  id: string;
  /** The PushSubscription JSON a browser would register as its channel. */
  json: string;
  endpoint: string;
}

export interface AcceptedPush {
  subscription: string;
  payload: unknown;
  headers: IncomingMessage['headers'];
  claims: Record<string, unknown>;
}

export interface ScriptedAnswer {
  status: number;
  retryAfter?: string;
}

export interface FakeWebPush {
  origin: string;
  subscribe(): FakeSubscription;
  /** The next answers of this subscription, before it accepts again. */
  script(subscription: string, answers: ScriptedAnswer[]): void;
  accepted: AcceptedPush[];
  /** Every request, with what the fake answered. */
  requests: { subscription: string; status: number }[];
  /** Requests it refused as malformed (bad VAPID, undecryptable): they fail the test that reads them. */
  problems: string[];
  close(): Promise<void>;
}

interface Keys {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => {
  const prk = createHmac('sha256', salt).update(ikm).digest();
  return createHmac('sha256', prk)
    .update(Buffer.concat([info, Buffer.from([1])]))
    .digest()
    .subarray(0, length);
};

/** RFC 8291 §3.4 + RFC 8188: one aes128gcm record. */
export function decryptAes128gcm(body: Buffer, keys: Keys): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const secret = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderPublic]);
  const ikm = hkdf(keys.auth, secret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Checks `Authorization: vapid t=…, k=…` and answers the JWT claims, or throws what is wrong. */
export function checkVapid(
  header: string | undefined,
  audience: string,
  publicKey: string,
  nowSeconds: number,
): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`Authorization is not vapid t=…, k=…: ${header}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  if (k !== publicKey) throw new Error('k is not the expected VAPID public key');
  const [head, body, signature] = jwt.split('.');
  if (!head || !body || !signature) throw new Error('malformed JWT');
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (header_.alg !== 'ES256') throw new Error(`alg ${header_.alg}`);
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  if (
    !verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    )
  )
    throw new Error('bad JWT signature');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud} is not ${audience}`);
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds || claims.exp > nowSeconds + 24 * 3600)
    throw new Error(`exp ${claims.exp} out of range`);
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub}`);
  return claims;
}

export async function startFakeWebPush(vapidPublicKey: string): Promise<FakeWebPush> {
  const keys = new Map<string, Keys>();
  const scripts = new Map<string, ScriptedAnswer[]>();
  const accepted: AcceptedPush[] = [];
  const requests: { subscription: string; status: number }[] = [];
  const problems: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = /^\/push\/([a-f0-9]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const answer = (status: number, headers: Record<string, string> = {}) => {
        requests.push({ subscription: id, status });
        res.writeHead(status, headers).end();
      };
      const subscriptionKeys = keys.get(id);
      if (req.method !== 'POST' || !subscriptionKeys) return answer(404);
      const scripted = scripts.get(id)?.shift();
      if (scripted) return answer(scripted.status, scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {});
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`Content-Encoding ${req.headers['content-encoding']}`);
        if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) throw new Error('no TTL');
        const claims = checkVapid(req.headers.authorization, origin, vapidPublicKey, Math.floor(Date.now() / 1000));
        const payload = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), subscriptionKeys)) as unknown;
        accepted.push({ subscription: id, payload, headers: req.headers, claims });
        answer(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` });
      } catch (error) {
        problems.push((error as Error).message);
        answer(400);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    accepted,
    requests,
    problems,
    subscribe() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(id, { ecdh, auth });
      const endpoint = `${origin}/push/${id}`;
      const json = JSON.stringify({
        endpoint,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      });
      return { id, json, endpoint };
    },
    script(subscription, answers) {
      scripts.set(subscription, [...answers]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
