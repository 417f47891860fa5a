// The `.env` parser: what operators and docker compose write is read; a line it cannot read is refused by number.
import { describe, expect, it } from 'vitest';
import { EnvFileError, parseEnvFile } from './env-file.js';

describe('parseEnvFile', () => {
  it('reads names and values, quoted and not, skipping blank lines and comments', () => {
    const text = [
      '# Gable',
      '',
      'PORT=3100',
      'export BASE_URL = https://api.example.com  # the public address',
      `APP_NAME='Acme # Realty'`,
      'MAIL_FROM="Acme \\"Realty\\" <no-reply@acme.example>"',
      'MULTI="one\\ntwo"',
      'EMPTY=',
      'URL=postgres://u:p#w@host/db',
    ].join('\r\n');
    expect(parseEnvFile(`\uFEFF${text}`)).toEqual({
      PORT: '3100',
      BASE_URL: 'https://api.example.com',
      APP_NAME: 'Acme # Realty',
      MAIL_FROM: 'Acme "Realty" <no-reply@acme.example>',
      MULTI: 'one\ntwo',
      EMPTY: '',
      URL: 'postgres://u:p#w@host/db',
    });
  });

  it.each([
    ['a line without =', 'PORT=1\nLOG_LEVEL info\n', 2, /expected NAME=value/],
    ['a name that is not one', '\n\n1PORT=3\n', 3, /not a variable name/],
    ['a quote not closed on its line', 'A="one\ntwo"\n', 1, /not closed/],
    ['text after the closing quote', "A='x' y\n", 1, /after the closing/],
  ])('refuses %s, naming its line', (_, text, line, reason) => {
    let thrown: unknown;
    try {
      parseEnvFile(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvFileError);
    expect((thrown as EnvFileError).line).toBe(line);
    expect((thrown as EnvFileError).message).toMatch(reason);
  });
});
