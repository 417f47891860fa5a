// A minimal SMTP receiver for benchmarks: it speaks just enough SMTP (RFC 5321: greeting, EHLO/HELO, MAIL, RCPT,
// DATA with dot-termination, RSET, NOOP, QUIT) to accept every message and count it, and nothing else. The npm
// smtp-server (what the tests use, with its full parser) tops out near 190 messages/s on this machine, below what
// the server under test sends; this one costs microseconds a message, so the figure is the sender's.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SmtpSink {
  url: string;
  accepted(): number;
  /** With `recordIds`: each Message-ID header value received, with how many times (a repeat is a resend). */
  messageIds(): ReadonlyMap<string, number>;
  close(): Promise<void>;
}

const MESSAGE_ID = /^message-id:[ \t]*(\S+)/im;

/** `recordIds`: also reads each message's Message-ID header (the bench that checks for lost or repeated mail). */
export async function startSmtpSink(options: { recordIds?: boolean } = {}): Promise<SmtpSink> {
  let accepted = 0;
  const ids = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let inData = false;
    // The header of the message being received is still being looked through for its Message-ID.
    let idPending = false;
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          if (idPending) {
            const headerEnd = buffer.indexOf('\r\n\r\n');
            const found = MESSAGE_ID.exec(headerEnd === -1 ? buffer : buffer.slice(0, headerEnd));
            if (found) ids.set(found[1]!, (ids.get(found[1]!) ?? 0) + 1);
            if (found || headerEnd !== -1) idPending = false;
          }
          const end = buffer.indexOf('\r\n.\r\n');
          // A message whose body is empty ends right after DATA's 354: the terminator then starts the buffer.
          const at = buffer.startsWith('.\r\n') ? 0 : end === -1 ? -1 : end + 2;
          if (at === -1) {
            if (!idPending) buffer = buffer.slice(Math.max(0, buffer.length - 4));
            return;
          }
          buffer = buffer.slice(at + 3);
          inData = false;
          accepted++;
          socket.write('250 2.0.0 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-sink\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'DATA') {
          inData = true;
          idPending = options.recordIds === true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else socket.write('250 2.0.0 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    messageIds: () => ids,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
