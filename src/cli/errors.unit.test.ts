// The one-line messages of the errors an operator causes (issue 30 item 8), and null for a bug.
import { describe, expect, it } from 'vitest';
import { operatorErrorLine } from './errors.js';

/** An error shaped as Node raises it for a system call. */
const systemError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);
const DATABASE = 'postgres://gable:secret@db.internal:5433/gable';

describe('operatorErrorLine', () => {
  it('names the file and what is wrong with it', () => {
    const missing = systemError("ENOENT: no such file or directory, open 'missing.csv'", {
      code: 'ENOENT',
      syscall: 'open',
      path: 'missing.csv',
    });
    expect(operatorErrorLine(missing, null)).toBe('missing.csv: no such file');
    const directory = systemError('EISDIR: illegal operation on a directory, read', {
      code: 'EISDIR',
      syscall: 'read',
      path: 'data',
    });
    expect(operatorErrorLine(directory, null)).toBe('data: is a directory, not a file');
  });

  it('says the database cannot be reached when the refused address is the database’s, and names another one', () => {
    const refused = systemError('connect ECONNREFUSED 10.0.0.5:5433', {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '10.0.0.5',
      port: 5433,
    });
    expect(operatorErrorLine(refused, DATABASE)).toBe(
      'cannot reach the database (DATABASE_URL): connect ECONNREFUSED 10.0.0.5:5433',
    );
    const smtp = systemError('connect ECONNREFUSED 10.0.0.9:587', {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '10.0.0.9',
      port: 587,
    });
    expect(operatorErrorLine(smtp, DATABASE)).toBe('cannot connect to 10.0.0.9:587: connect ECONNREFUSED 10.0.0.9:587');
    const unknownHost = systemError('getaddrinfo ENOTFOUND db.internal', {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: 'db.internal',
    });
    expect(operatorErrorLine(unknownHost, DATABASE)).toBe(
      'cannot reach the database (DATABASE_URL): getaddrinfo ENOTFOUND db.internal',
    );
  });

  it('says the database refused the session for a bad password or a missing database', () => {
    const noDatabase = Object.assign(new Error('database "gable" does not exist'), { code: '3D000' });
    expect(operatorErrorLine(noDatabase, DATABASE)).toBe(
      'the database refused the connection (DATABASE_URL): database "gable" does not exist',
    );
  });

  it('leaves anything else to its stack trace: a bug, a constraint violated, a value that is not an error', () => {
    expect(operatorErrorLine(new TypeError('x is not a function'), DATABASE)).toBeNull();
    expect(operatorErrorLine(Object.assign(new Error('duplicate key'), { code: '23505' }), DATABASE)).toBeNull();
    expect(operatorErrorLine('a string', DATABASE)).toBeNull();
  });
});
