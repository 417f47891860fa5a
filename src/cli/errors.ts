// What an operator did that a command cannot get past — a file that is not there, a database it cannot reach or
// whose schema is behind (ADR 0040) — said in one line with exit 2, as a bad flag is (issue 30 item 8). A stack
// trace there reads as a bug in Gable; `--verbose` still prints it. Any other error is a bug and keeps its stack
// trace.
import { MigrationsAheadAndBehindError, MigrationsBehindError } from '../db/migrations-behind.js';

/** Exit status of a command refused for what the operator gave it (a file, a flag, a database address). */
export const EXIT_OPERATOR_ERROR = 2;

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  path?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
};

/** Network failures of a connection to the database server. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** PostgreSQL refusing the session: bad password, no such role or entry in pg_hba.conf, no such database, starting up. */
const SESSION_REFUSED_CODES = new Set(['28P01', '28000', '3D000', '57P03']);

/**
 * The one line for an error the operator can fix, or null for anything else. `databaseUrl` tells a database that
 * cannot be reached from another service that cannot (an SMTP relay, a bucket).
 */
export function operatorErrorLine(error: unknown, databaseUrl: string | null): string | null {
  if (!(error instanceof Error)) return null;
  if (error instanceof MigrationsBehindError || error instanceof MigrationsAheadAndBehindError) return error.message;
  const { code, syscall, path, address, port, hostname } = error as SystemError;
  if (code && path && FILE_PROBLEMS[code]) return `${path}: ${FILE_PROBLEMS[code]}`;
  if (code && CONNECT_CODES.has(code) && syscall !== undefined) {
    const target = hostname ?? (address !== undefined ? `${address}${port !== undefined ? `:${port}` : ''}` : null);
    return isDatabase(databaseUrl, hostname ?? address, port)
      ? `cannot reach the database (DATABASE_URL): ${error.message}`
      : `cannot connect${target ? ` to ${target}` : ''}: ${error.message}`;
  }
  if (code && SESSION_REFUSED_CODES.has(code))
    return `the database refused the connection (DATABASE_URL): ${error.message}`;
  return null;
}

/** Whether host and port are those of the database URL (an IP the name resolved to counts when the port matches). */
function isDatabase(databaseUrl: string | null, host: string | undefined, port: number | undefined): boolean {
  if (!databaseUrl) return false;
  try {
    const url = new URL(databaseUrl);
    const databasePort = Number(url.port || 5432);
    return port === undefined ? host === url.hostname : port === databasePort;
  } catch {
    return false;
  }
}
