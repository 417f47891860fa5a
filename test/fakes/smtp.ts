// A loopback SMTP relay (npm smtp-server) that keeps what it received, parsed with mailparser. It refuses
// recipients whose local part starts with `refuse` (550), as a real relay refuses unknown mailboxes.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Makes the next `count` DATA commands fail with a 451 (a temporary failure the sender must retry). */
  failNext(count: number): void;
  close(): Promise<void>;
}

/** `delayMs`: the relay waits this long before answering each DATA (a real relay's pace; a crash test's window). */
export async function startSmtpSink(options: { delayMs?: number; port?: number } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (/^refuse/i.test(address.address)) {
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          const error = new Error('Try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const parse = options.delayMs
          ? new Promise((resolve) => setTimeout(resolve, options.delayMs)).then(() => simpleParser(raw))
          : simpleParser(raw);
        parse.then(
          (parsed) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  // A client that vanishes mid-session (a SIGKILLed worker in a crash test) resets its socket: a real relay
  // logs that and serves the next client. Anything else is a fault of the fake and fails the test run.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (count) => void (failures = count),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A sink for a describe block, started before the app that `useTestApp({env: sink.env})` builds (register this
 * first: hooks run in order). `env.SMTP_URL` is filled in when the sink listens.
 */
export function useSmtpSink(): { env: Record<string, string>; readonly sink: SmtpSink } {
  const env: Record<string, string> = {};
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
    env.SMTP_URL = sink.url;
  });
  afterAll(async () => {
    await sink?.close();
  });
  return {
    env,
    get sink() {
      if (!sink) throw new Error('useSmtpSink: the sink exists only inside hooks and tests');
      return sink;
    },
  };
}
