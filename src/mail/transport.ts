// The one place that calls nodemailer (decisions §15): a pooled SMTP transport from SMTP_URL, or, with none,
// `.eml` files under DATA_DIR/mail/ so a newcomer can read every message the server would have sent.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

/** A message ready for the wire: addresses, content and our own Message-ID. */
export interface WireMessage {
  /** Ledger id: names the .eml file. */
  id: string;
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
}

/** What the relay answered: recipients it accepted and refused, and its final reply line. */
export interface SendOutcome {
  accepted: string[];
  rejected: string[];
  response: string;
}

/**
 * Why a send failed. `permanent` (a 5xx for the whole message, or every recipient refused) is not retried;
 * anything else (connection refused, 4xx, timeout) is, by the job queue.
 */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly outcome: SendOutcome | null,
  ) {
    super(message);
    this.name = 'SendFailure';
  }
}

export interface MailTransport {
  readonly kind: 'smtp' | 'files';
  send(message: WireMessage): Promise<SendOutcome>;
  close(): void;
}

export function emlDirectory(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'mail');
}

/** The .eml file of a ledger row (embedded mode). Ids are uuids, so the name cannot leave the directory. */
export function emlPath(config: Pick<Config, 'dataDir'>, id: string): string {
  return join(emlDirectory(config), `${id}.eml`);
}

function mailOptions(message: WireMessage) {
  return {
    messageId: message.messageId,
    from: message.from,
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    subject: message.subject,
    ...(message.html !== null ? { html: message.html } : {}),
    ...(message.text !== null ? { text: message.text } : {}),
    headers: message.headers,
    // Bcc stays out of the written headers; it is only in the envelope.
    envelope: { from: addressOnly(message.from), to: [...message.to, ...message.cc, ...message.bcc] },
  };
}

/** `Name <a@b>` → `a@b` (MAIL_FROM may carry a display name). */
function addressOnly(from: string): string {
  const match = /<([^>]+)>\s*$/.exec(from);
  return match ? match[1]! : from;
}

export function createMailTransport(config: Pick<Config, 'smtpUrl' | 'dataDir'>): MailTransport {
  if (config.smtpUrl) return smtpTransport(config.smtpUrl);
  return fileTransport(config);
}

type GetSocket = (
  options: { host?: string; port?: number },
  callback: (error: Error | null, socketOptions: { connection: Socket } | false) => void,
) => void;

/**
 * Opens the relay connection with Nagle's algorithm off. With it on, the end of each message's DATA (a small
 * write right after the body) waits for the relay to acknowledge the body, which a relay delays by up to 40 ms:
 * one pooled connection then carries ~25 messages a second. For smtps:// nodemailer must open the TLS socket
 * itself: left as it is.
 */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * nodemailer's connection options from SMTP_URL: `smtp://` (STARTTLS when offered) or `smtps://` (TLS from the
 * start), user and password (URL-encoded), host and port; query parameters set options by name, `true`/`false`
 * and numbers as such, one dotted level (`?tls.rejectUnauthorized=false`), as nodemailer's own url reading does.
 */
export function smtpOptionsOf(url: string): { connection: Record<string, unknown>; query: Record<string, unknown> } {
  const parsed = new URL(url);
  const connection: Record<string, unknown> = {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    secure: parsed.protocol === 'smtps:',
  };
  if (parsed.port) connection.port = Number(parsed.port);
  if (parsed.username)
    connection.auth = { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
  const query: Record<string, unknown> = {};
  for (const [key, raw] of parsed.searchParams) {
    const value =
      raw === 'true' ? true : raw === 'false' ? false : raw !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
    const [head, field] = key.split('.', 2) as [string, string | undefined];
    if (field === undefined) query[head] = value;
    else query[head] = { ...(query[head] as Record<string, unknown> | undefined), [field]: value };
  }
  return { connection, query };
}

/**
 * Connects to the relay, reads its greeting, says EHLO and logs in when SMTP_URL carries a user (`gable doctor`):
 * answers the relay's address, or throws why it failed — within `timeoutMs` for each of those steps.
 */
export async function verifySmtp(url: string, timeoutMs: number): Promise<string> {
  const { connection, query } = smtpOptionsOf(url);
  const transport = nodemailer.createTransport({
    ...query,
    ...connection,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    await transport.verify();
    const { host, port } = connection as { host: string; port?: number };
    return `${host}:${port ?? (connection.secure ? 465 : 587)} answered`;
  } finally {
    transport.close();
  }
}

function noDelaySocket(url: string): GetSocket {
  const implicitTls = new URL(url).protocol === 'smtps:';
  return (options, callback) => {
    if (implicitTls) return setImmediate(() => callback(null, false));
    const socket = connect({
      host: options.host ?? 'localhost',
      port: options.port ?? 25,
      noDelay: true,
      timeout: CONNECT_TIMEOUT_MS,
    });
    const fail = (error: Error) => {
      socket.destroy();
      callback(error, false);
    };
    socket.once('error', fail);
    socket.once('timeout', () => fail(new Error(`No connection to the SMTP relay within ${CONNECT_TIMEOUT_MS} ms`)));
    socket.once('connect', () => {
      socket.off('error', fail);
      socket.setTimeout(0);
      callback(null, { connection: socket });
    });
  };
}

function smtpTransport(url: string): MailTransport {
  // Bounded waits (nodemailer's socket default is 10 minutes): one send ends well inside the ledger's lease.
  // Not `{ url, … }`: given a url, nodemailer builds the transport from the url alone and drops every other option
  // (the pool, the timeouts), so the url is parsed here and its query may still set nodemailer options.
  const { connection, query } = smtpOptionsOf(url);
  const transporter = nodemailer.createTransport({
    ...connection,
    pool: true,
    maxConnections: 5,
    maxMessages: 1000,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    getSocket: noDelaySocket(url),
    ...query,
  } as nodemailer.TransportOptions);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = (await transporter.sendMail(mailOptions(message))) as {
          accepted: unknown[];
          rejected: unknown[];
          response: string;
        };
        return { accepted: info.accepted.map(String), rejected: info.rejected.map(String), response: info.response };
      } catch (error) {
        throw asSendFailure(error);
      }
    },
    close: () => transporter.close(),
  };
}

interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
  rejected?: unknown[];
}

function asSendFailure(error: unknown): SendFailure {
  const e = (error ?? {}) as SmtpError;
  // Every recipient refused: the message was handed to the relay and answered; sending it again changes nothing.
  if (e.code === 'EENVELOPE' && Array.isArray(e.rejected) && e.rejected.length > 0) {
    return new SendFailure(e.message ?? 'All recipients were refused', true, {
      accepted: [],
      rejected: e.rejected.map(String),
      response: e.response ?? '',
    });
  }
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
  return new SendFailure(e.message ?? String(error), permanent, null);
}

function fileTransport(config: Pick<Config, 'dataDir'>): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    async send(message) {
      const info = (await transporter.sendMail(mailOptions(message))) as { message: Buffer };
      await mkdir(emlDirectory(config), { recursive: true });
      const file = emlPath(config, message.id);
      await writeFile(file, info.message);
      return { accepted: [...message.to, ...message.cc, ...message.bcc], rejected: [], response: `written to ${file}` };
    },
    close: () => undefined,
  };
}
