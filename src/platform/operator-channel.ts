// The operator channel: how an operator command reaches a running embedded server. PGlite is one process's, so
// while `gable serve` holds DATA_DIR (src/db/lock.ts) a command cannot open the database; a command that must act
// live (e.g. `gable notify`, whose notification has to reach the server's open streams) asks the server instead.
//
// It is not part of the API: a separate plain HTTP listener on the loopback interface only, on a port of the
// system's choosing, with its own few actions and nothing else (no API route answers there, and no action answers
// on the API's port). Each request needs a bearer secret that the server draws at start and writes, with the port,
// to DATA_DIR/operator.json with mode 0600: whoever can read that file can already read the database itself, so
// it grants nothing new, while API clients, other local users and web pages (a cross-origin request with an
// Authorization header needs a CORS preflight, which this listener never grants) cannot call it.
// The file is removed when the server stops; a stale one (a killed server) is never used, because a command asks
// the server only while the lock shows a live owner.
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Deps } from './deps.js';
import { AppError, ERROR_CATALOGUE, errors, type ErrorCode } from '../errors.js';

export const OPERATOR_CHANNEL_FILE = 'operator.json';
const MAX_BODY = 64 * 1024;

/** One operator action: validates its JSON body itself (AppError for a mistake) and answers JSON. */
export type OperatorAction = (deps: Deps, body: unknown) => Promise<unknown>;
export type OperatorActions = Readonly<Record<string, OperatorAction>>;

interface ChannelFile {
  pid: number;
  port: number;
  secret: string;
}

export interface OperatorChannel {
  readonly port: number;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Starts the channel of an embedded server (none on PostgreSQL, where every command opens the database itself). */
export async function startOperatorChannel(deps: Deps, actions: OperatorActions): Promise<OperatorChannel | null> {
  if (!deps.config.embedded) return null;
  const secret = randomBytes(32).toString('base64url');
  const expected = digest(`Bearer ${secret}`);
  const server = createServer((request, response) => {
    void handle(deps, actions, expected, request, response);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const file = join(deps.config.dataDir, OPERATOR_CHANNEL_FILE);
  // Written whole under another name, then renamed: a command never reads half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ pid: process.pid, port, secret } satisfies ChannelFile) + '\n', {
    mode: 0o600,
  });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  deps.log.info({ port }, 'operator channel listening on the loopback interface (see DATA_DIR/operator.json)');
  return {
    port,
    async close() {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as ChannelFile).secret === secret) unlinkSync(file);
      } catch {
        // already gone, or another server's by now: not ours to remove
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  deps: Deps,
  actions: OperatorActions,
  expected: Buffer,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const answer = (status: number, body: unknown) => {
    response
      .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify(body));
  };
  const failure = (error: AppError) => answer(error.http, { code: error.code, message: error.message });
  try {
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected))
      return failure(errors.unauthorized('The operator secret is missing or wrong'));
    const name = (request.url ?? '').replace(/^\//, '');
    const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
    if (!action) return failure(errors.notFound(`Operator action ${name}`));
    if (request.method !== 'POST')
      return failure(new AppError('MethodNotAllowed', `${request.method} is not allowed on /${name}`));
    if (!/^application\/json\b/.test(request.headers['content-type'] ?? ''))
      return failure(new AppError('UnsupportedMediaType', 'The body must be application/json'));
    const text = await readBody(request);
    if (text === null) return failure(new AppError('PayloadTooLarge', `The body is over ${MAX_BODY} bytes`));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return failure(errors.badRequest('The body is not JSON'));
    }
    answer(200, await action(deps, body));
  } catch (error) {
    if (error instanceof AppError && error.http < 500) return failure(error);
    deps.log.error({ err: error }, 'operator channel: action failed');
    answer(500, { code: 'Internal', message: 'The action failed; the server log has the details' });
  }
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs `action` on the server that holds `dataDir`, as that server would run it itself. A mistake the server
 * refuses comes back as the same AppError (an operator command prints it as one line).
 */
export async function callOperatorChannel(dataDir: string, action: string, body: unknown): Promise<unknown> {
  const file = join(dataDir, OPERATOR_CHANNEL_FILE);
  let channel: ChannelFile;
  try {
    channel = JSON.parse(readFileSync(file, 'utf8')) as ChannelFile;
  } catch {
    throw new OperatorChannelUnavailableError(
      `the running server offers no operator channel (no readable ${file}): wait until it has started, or stop it and run this command again`,
    );
  }
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${channel.port}/${action}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${channel.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new OperatorChannelUnavailableError(
      `the running server (process ${channel.pid}) did not answer on its operator channel (port ${channel.port})`,
    );
  }
  const answer = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (response.ok) return answer;
  if (response.status < 500 && answer?.message && Object.hasOwn(ERROR_CATALOGUE, answer.code ?? ''))
    throw new AppError(answer.code as ErrorCode, answer.message);
  throw new Error(
    `The running server failed the ${action} action (HTTP ${response.status}${answer?.message ? `: ${answer.message}` : ''})`,
  );
}

/** The data directory is held, but not by a server that can be asked. */
export class OperatorChannelUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorChannelUnavailableError';
  }
}
