// A loopback APNs provider API on node:http2 with TLS (the self-signed certificate in ./tls). It checks what Apple
// checks: the ES256 provider token (signature by the team's key, kid, iss, an iat within the hour), `apns-topic`,
// `apns-push-type` (and priority 5 for background pushes), the /3/device/<token> path and a JSON payload with
// `aps`. A device token can be told to answer a list of failures first (410 Unregistered, 400 BadDeviceToken…).
import { generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface ApnsAnswer {
  status: number;
  reason?: string;
  retryAfter?: string;
}

export interface FakeApns {
  url: string;
  caFile: string;
  keyFile: string;
  keyId: string;
  teamId: string;
  topic: string;
  accepted: {
    device: string;
    payload: { aps: Record<string, unknown> } & Record<string, unknown>;
    headers: http2.IncomingHttpHeaders;
  }[];
  requests: { device: string; status: number }[];
  problems: string[];
  /** HTTP/2 connections opened to it (a kept session reuses one). */
  connections: number;
  script(device: string, answers: ApnsAnswer[]): void;
  close(): Promise<void>;
}

const TLS_DIR = new URL('./tls/', import.meta.url);

/** Another `topic`, `keyId` and `teamId` (and its own signing key) stand for a second app's credentials. */
export async function startFakeApns(
  dir: string,
  {
    topic = 'com.example.gable',
    keyId = 'TESTKEY123',
    teamId = 'TEAM456789',
  }: { topic?: string; keyId?: string; teamId?: string } = {},
): Promise<FakeApns> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const keyFile = join(dir, `AuthKey_${keyId}.p8`);
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const scripts = new Map<string, ApnsAnswer[]>();
  const server = http2.createSecureServer({
    key: readFileSync(new URL('loopback.key', TLS_DIR)),
    cert: readFileSync(new URL('loopback.crt', TLS_DIR)),
  });
  const fake: Omit<FakeApns, 'url' | 'close'> = {
    caFile: new URL('loopback.crt', TLS_DIR).pathname,
    keyFile,
    keyId,
    teamId,
    topic,
    accepted: [],
    requests: [],
    problems: [],
    connections: 0,
    script: (device, answers) => void scripts.set(device, [...answers]),
  };
  const check = (
    headers: http2.IncomingHttpHeaders,
    body: string,
  ): { device: string; payload: FakeApns['accepted'][number]['payload'] } => {
    const device = /^\/3\/device\/([0-9a-f]+)$/.exec(String(headers[':path']))?.[1];
    if (headers[':method'] !== 'POST' || !device) throw new Error(`path ${headers[':path']}`);
    const jwt = /^bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1] ?? '';
    const [head, claims, signature] = jwt.split('.');
    if (!head || !claims || !signature) throw new Error('no provider token');
    const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string; kid?: string };
    if (header.alg !== 'ES256' || header.kid !== keyId) throw new Error(`token header ${JSON.stringify(header)}`);
    if (
      !verify(
        'sha256',
        Buffer.from(`${head}.${claims}`),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      )
    )
      throw new Error('bad token signature');
    const { iss, iat } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { iss?: string; iat?: number };
    if (iss !== teamId || typeof iat !== 'number' || Math.abs(Date.now() / 1000 - iat) > 3600 * 48)
      throw new Error(`token claims iss=${iss} iat=${iat}`);
    if (headers['apns-topic'] !== topic) throw new Error(`apns-topic ${headers['apns-topic']}`);
    const type = headers['apns-push-type'];
    if (type !== 'alert' && type !== 'background') throw new Error(`apns-push-type ${type}`);
    if (type === 'background' && headers['apns-priority'] !== '5')
      throw new Error('background push with priority other than 5');
    const payload = JSON.parse(body) as { aps?: unknown };
    if (typeof payload.aps !== 'object' || payload.aps === null) throw new Error('no aps');
    return { device, payload: payload as FakeApns['accepted'][number]['payload'] };
  };
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    fake.connections++;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const answer = (status: number, reason?: string, extra: Record<string, string> = {}) => {
        stream.respond({ ':status': status, 'apns-id': randomUUID(), ...extra });
        stream.end(reason ? JSON.stringify({ reason }) : undefined);
      };
      let checked: ReturnType<typeof check>;
      try {
        checked = check(headers, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        fake.problems.push((error as Error).message);
        return answer(403, 'InvalidProviderToken');
      }
      const scripted = scripts.get(checked.device)?.shift();
      fake.requests.push({ device: checked.device, status: scripted?.status ?? 200 });
      if (scripted)
        return answer(
          scripted.status,
          scripted.reason,
          scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {},
        );
      fake.accepted.push({ ...checked, headers });
      answer(200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open client sessions would keep close() waiting.
        for (const session of sessions) session.destroy();
      }),
  });
}
