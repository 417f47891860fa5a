// The one error a command gives on a PostgreSQL database whose schema is older than its code (decisions §20).
// Its own file, importing nothing, so the CLI's error handler can name it without loading the database layer.

export class MigrationsBehindError extends Error {
  constructor(readonly pending: readonly string[]) {
    const count = pending.length === 1 ? 'one migration' : `${pending.length} migrations`;
    super(`the database is ${count} behind this version of gable (${pending.at(-1)}): run \`gable migrate\``);
    this.name = 'MigrationsBehindError';
  }
}
