// The one place that calls nodemailer (decisions §15): a pooled SMTP transport from SMTP_URL, or, with none,
// `.eml` files under DATA_DIR/mail/ so a newcomer can read every message the server would have sent.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, pool: true, maxConnections: 5, maxMessages: 1000 } as nodemailer.TransportOptions);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = (await transporter.sendMail(mailOptions(message))) as { accepted: unknown[]; rejected: unknown[]; response: string };
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
    return new SendFailure(e.message ?? 'All recipients were refused', true, { accepted: [], rejected: e.rejected.map(String), response: e.response ?? '' });
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
