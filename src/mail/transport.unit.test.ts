// SMTP_URL as nodemailer options: parsed here, because nodemailer given `{ url, … }` keeps the url's options only
// and silently drops the pool and the timeouts set next to it.
import { describe, expect, it } from 'vitest';
import { smtpOptionsOf } from './transport.js';

describe('smtpOptionsOf', () => {
  it('reads scheme, credentials (URL-encoded), host and port', () => {
    expect(smtpOptionsOf('smtps://ops%40gable.test:p%3Ass%2Fw@mail.example.com:465')).toEqual({
      connection: {
        host: 'mail.example.com',
        port: 465,
        secure: true,
        auth: { user: 'ops@gable.test', pass: 'p:ss/w' },
      },
      query: {},
    });
    expect(smtpOptionsOf('smtp://[::1]:2525').connection).toEqual({ host: '::1', port: 2525, secure: false });
    expect(smtpOptionsOf('smtp://relay.example').connection).toEqual({ host: 'relay.example', secure: false });
  });

  it('lets the query set options by name: booleans, numbers, one dotted level', () => {
    expect(
      smtpOptionsOf(
        'smtp://relay.example:587/?requireTLS=true&maxConnections=10&tls.rejectUnauthorized=false&tls.servername=mx.example&name=gable',
      ).query,
    ).toEqual({
      requireTLS: true,
      maxConnections: 10,
      tls: { rejectUnauthorized: false, servername: 'mx.example' },
      name: 'gable',
    });
  });
});
