// The errors a command gives on a PostgreSQL database whose schema does not match its code (decisions §20).
// Its own file, importing nothing, so the CLI's error handler can name it without loading the database layer.

export class MigrationsBehindError extends Error {
  constructor(readonly pending: readonly string[]) {
    const count = pending.length === 1 ? 'one migration' : `${pending.length} migrations`;
    super(`the database is ${count} behind this version of gable (${pending.at(-1)}): run \`gable migrate\``);
    this.name = 'MigrationsBehindError';
  }
}

/** A database with migrations of a newer version and without some of this one's: no version matches it. */
export class MigrationsAheadAndBehindError extends Error {
  constructor(ahead: readonly string[], pending: readonly string[]) {
    super(
      `the database has ${ahead.length} migration(s) this version of gable does not know (${ahead.at(-1)}) and ` +
        `lacks ${pending.length} of its own (${pending[0]}): migrate it with the newest version`,
    );
    this.name = 'MigrationsAheadAndBehindError';
  }
}
