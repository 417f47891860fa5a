// APNs over HTTP/2 with token authentication (decisions §16): an ES256 JWT (kid = APNS_KEY_ID, iss = team)
// renewed every 50 minutes (Apple refuses one older than an hour and throttles renewing more often than every
// 20), `apns-topic` = the app's bundle id, `apns-push-type` alert or background. The HTTP/1 outbound client
// cannot speak HTTP/2, so this sender applies the same policy itself: the host is resolved and checked by the
// SSRF guard (OutboundHttp.check) and the socket is pinned to the checked address; a deadline covers each push;
// answers are capped. One HTTP/2 session is kept and reopened when it closes. Apple's word on a device:
// 410 `Unregistered`, 400 `BadDeviceToken` → delete the token.
import http2 from 'node:http2';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { ApnsConfig } from '../../config-push.js';
import type { Clock } from '../../lib/clock.js';
import { bareHost } from '../../lib/network-guard.js';
import { OutboundError, type OutboundHttp } from '../../lib/outbound.js';
import { parseRetryAfter } from '../../lib/retry-after.js';
import { signJwt } from './push.jwt.js';
import type { PushMessage } from './push.message.js';
import { outboundFailure, PUSH_TIMEOUT_MS, retryOrFail, type PushResult, type PushSender } from './push.sender.js';

const TOKEN_LIFETIME_MS = 50 * 60 * 1000;
const MAX_ANSWER_BYTES = 16 * 1024;

export function apnsPayload(message: PushMessage) {
  const aps = message.silent
    ? { 'content-available': 1, badge: message.badge }
    : {
        alert: { ...(message.title ? { title: message.title } : {}), body: message.body },
        badge: message.badge,
        ...(message.sound ? { sound: message.sound } : {}),
      };
  return { aps, ...message.data };
}

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

export class ApnsSender implements PushSender {
  private readonly key: KeyObject;
  private jwt: { token: string; renewAt: number } | null = null;
  private session: Promise<http2.ClientHttp2Session> | null = null;
  private current: http2.ClientHttp2Session | null = null;

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly config: ApnsConfig,
    private readonly clock: Clock,
  ) {
    this.key = createPrivateKey(config.key);
  }

  async send(channel: string, message: PushMessage): Promise<PushResult> {
    try {
      let answer = await this.post(channel, message);
      if (answer.status === 403 && reasonOf(answer.body) === 'ExpiredProviderToken') {
        this.jwt = null;
        answer = await this.post(channel, message);
      }
      return this.judge(answer);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return outboundFailure(error);
    }
  }

  async close(): Promise<void> {
    const session = await this.session?.catch(() => null);
    this.session = null;
    this.current = null;
    session?.close();
  }

  private judge(answer: Answer): PushResult {
    const { status } = answer;
    if (status === 200) return { outcome: 'sent', status };
    const reason = reasonOf(answer.body);
    const error = `HTTP ${status}: ${reason ?? answer.body.slice(0, 200)}`;
    if (status === 410 || (status === 400 && reason === 'BadDeviceToken'))
      return { outcome: 'dead_token', status, error };
    return retryOrFail(status, parseRetryAfter(answer.headers['retry-after'], this.clock.now()), error);
  }

  private providerToken(): string {
    const now = this.clock.now().getTime();
    if (!this.jwt || now >= this.jwt.renewAt) {
      const token = signJwt(
        'ES256',
        this.key,
        { kid: this.config.keyId },
        { iss: this.config.teamId, iat: Math.floor(now / 1000) },
      );
      this.jwt = { token, renewAt: now + TOKEN_LIFETIME_MS };
    }
    return this.jwt.token;
  }

  private async post(channel: string, message: PushMessage): Promise<Answer> {
    const started = performance.now();
    const session = await this.connect();
    const headers = {
      ':method': 'POST',
      ':path': `/3/device/${encodeURIComponent(channel)}`,
      authorization: `bearer ${this.providerToken()}`,
      'apns-topic': this.config.topic,
      'apns-push-type': message.silent ? 'background' : 'alert',
      // Background pushes must be priority 5 (Apple refuses 10 for them).
      'apns-priority': message.silent ? '5' : '10',
      'apns-collapse-id': message.id,
      'apns-expiration': String(Math.floor(this.clock.now().getTime() / 1000) + 24 * 3600),
      'content-type': 'application/json',
    };
    return new Promise<Answer>((resolve, reject) => {
      const stream = session.request(headers);
      const fail = (kind: 'timeout' | 'network' | 'too_large', text: string) => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        reject(new OutboundError(kind, text, performance.now() - started));
      };
      stream.setTimeout(PUSH_TIMEOUT_MS, () => fail('timeout', `no complete answer within ${PUSH_TIMEOUT_MS} ms`));
      let answerHeaders: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('response', (h) => (answerHeaders = h));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) return fail('too_large', `answer larger than ${MAX_ANSWER_BYTES} bytes`);
        chunks.push(chunk);
      });
      stream.on('end', () =>
        resolve({
          status: Number(answerHeaders[':status'] ?? 0),
          headers: answerHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      stream.on('error', (error) => fail('network', error.message));
      stream.end(JSON.stringify(apnsPayload(message)));
    });
  }

  /** The open session, or a new one to the address the SSRF guard checked (pinned: no second DNS answer). */
  private connect(): Promise<http2.ClientHttp2Session> {
    this.session ??= this.open().catch((error: unknown) => {
      this.session = null;
      throw error;
    });
    return this.session;
  }

  private async open(): Promise<http2.ClientHttp2Session> {
    const target = await this.outbound.check(this.config.url);
    const host = bareHost(target.url.hostname);
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all)
        (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
          { address: target.address, family: target.family },
        ]);
      else callback(null, target.address, target.family);
    };
    const session = http2.connect(target.url.origin, {
      lookup: pinned,
      ...(isIP(host) ? {} : { servername: host }),
      ...(this.config.ca ? { ca: this.config.ca } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        session.destroy();
        reject(new OutboundError('timeout', `no connection within ${PUSH_TIMEOUT_MS} ms`));
      }, PUSH_TIMEOUT_MS);
      session.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      session.once('error', (error) => {
        clearTimeout(timer);
        reject(new OutboundError('network', error.message));
      });
    });
    // A kept session must not hold the process open, and a closed or failed one is replaced on the next push.
    session.unref();
    this.current = session;
    const forget = () => {
      if (this.current !== session) return;
      this.current = null;
      this.session = null;
    };
    session.on('close', forget);
    session.on('error', forget);
    session.on('goaway', forget);
    return session;
  }
}

function reasonOf(body: string): string | null {
  try {
    const reason = (JSON.parse(body) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? reason : null;
  } catch {
    return null;
  }
}
