// A loopback FCM HTTP v1 service with its OAuth token endpoint. The token endpoint checks the JWT assertion as
// Google does (RS256 signature by the service account's key, iss = client_email, aud = the token URL, the
// firebase.messaging scope, at most an hour) and issues access tokens; messages:send accepts only those tokens
// and answers as FCM does. A registration token can be told to answer a list of failures first, e.g. UNREGISTERED.
import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface FcmAnswer {
  status: number;
  /** An FcmError errorCode (UNREGISTERED, QUOTA_EXCEEDED, UNAVAILABLE…). */
  errorCode?: string;
  retryAfter?: string;
}

export interface FakeFcm {
  url: string;
  tokenUrl: string;
  projectId: string;
  /** Path of the service-account JSON written for FCM_CREDENTIALS. */
  credentialsFile: string;
  accepted: { token: string; message: Record<string, unknown>; headers: IncomingHttpHeaders }[];
  requests: { token: string; status: number }[];
  /** Access tokens issued. */
  exchanges: number;
  problems: string[];
  script(token: string, answers: FcmAnswer[]): void;
  close(): Promise<void>;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

function checkAssertion(jwt: string, key: KeyObject, clientEmail: string, audience: string): void {
  const [head, body, signature] = jwt.split('.');
  if (!head || !body || !signature) throw new Error('malformed assertion');
  if ((JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string }).alg !== 'RS256')
    throw new Error('assertion alg is not RS256');
  if (!verify('sha256', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url')))
    throw new Error('bad assertion signature');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
    iss?: string;
    aud?: string;
    scope?: string;
    iat?: number;
    exp?: number;
  };
  if (claims.iss !== clientEmail) throw new Error(`iss ${claims.iss}`);
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud}`);
  if (!claims.scope?.split(' ').includes(SCOPE)) throw new Error(`scope ${claims.scope}`);
  if (
    typeof claims.iat !== 'number' ||
    typeof claims.exp !== 'number' ||
    claims.exp - claims.iat > 3600 ||
    claims.exp <= claims.iat
  )
    throw new Error('iat/exp');
}

/** `projectId` names another Firebase project (its own service account, key and credentials file): a second app. */
export async function startFakeFcm(
  dir: string,
  { projectId = 'gable-test' }: { projectId?: string } = {},
): Promise<FakeFcm> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = `push@${projectId}.iam.gserviceaccount.com`;
  const issued = new Set<string>();
  const scripts = new Map<string, FcmAnswer[]>();
  const fake: Omit<FakeFcm, 'url' | 'tokenUrl' | 'credentialsFile' | 'close'> = {
    projectId,
    accepted: [],
    requests: [],
    exchanges: 0,
    problems: [],
    script: (token, answers) => void scripts.set(token, [...answers]),
  };
  let origin = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (req.url === '/token' && req.method === 'POST') {
        const form = new URLSearchParams(body);
        try {
          if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') throw new Error('grant_type');
          checkAssertion(form.get('assertion') ?? '', publicKey, clientEmail, `${origin}/token`);
        } catch (error) {
          fake.problems.push((error as Error).message);
          return json(400, { error: 'invalid_grant' });
        }
        const token = `ya29.${randomBytes(16).toString('hex')}`;
        issued.add(token);
        fake.exchanges++;
        return json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      if (req.url !== `/v1/projects/${projectId}/messages:send` || req.method !== 'POST')
        return json(404, { error: { code: 404, status: 'NOT_FOUND' } });
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !issued.has(bearer)) return json(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      const message = (JSON.parse(body) as { message?: Record<string, unknown> }).message ?? {};
      const token = String(message.token ?? '');
      const scripted = scripts.get(token)?.shift();
      if (scripted) {
        fake.requests.push({ token, status: scripted.status });
        const details = scripted.errorCode
          ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: scripted.errorCode }]
          : [];
        return json(
          scripted.status,
          {
            error: {
              code: scripted.status,
              message: 'scripted',
              status: scripted.status === 404 ? 'NOT_FOUND' : 'UNAVAILABLE',
              details,
            },
          },
          scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {},
        );
      }
      fake.requests.push({ token, status: 200 });
      fake.accepted.push({ token, message, headers: req.headers });
      json(200, { name: `projects/${projectId}/messages/${randomBytes(6).toString('hex')}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const credentialsFile = join(dir, `fcm-service-account-${projectId}.json`);
  writeFileSync(
    credentialsFile,
    JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      client_email: clientEmail,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: `${origin}/token`,
    }),
  );
  return Object.assign(fake, {
    url: origin,
    tokenUrl: `${origin}/token`,
    credentialsFile,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
