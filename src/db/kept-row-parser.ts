// A named prepared statement answers the same columns every time, yet node-postgres asks for them again on every
// call and rebuilds its row parser from the answer: it sends Describe with each Execute, PostgreSQL answers a
// RowDescription (~60 fields for the bearer check folded with the user row), pg parses that message and then
// builds a type-parser look-up and a property per column (pg/lib/result.js addFields). On GET /users/self that
// was ~14 % of the server's CPU (addFields; a --cpu-prof under load, docs/oauth.md), then ~5 % more for the
// message itself. A prepared statement's columns cannot change on its connection: PostgreSQL refuses to run it
// again if they would ("cached plan must not change result type"). So the first call of a statement on a
// connection describes it and keeps the parser pg built, and later calls there send Bind and Execute alone and
// parse with the kept parser.
//
// It leans on pg's Query, Result and Connection internals (`_result`, `_parsers`, `_prebuiltEmptyResultObject`,
// `prepare`, `hasBeenParsed`, `_getRows`, pg 8.x); src/db/kept-row-parser.test.ts fails if they change shape.
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

/** The part of pg's Result this touches. */
interface ResultInternals {
  fields: FieldDescription[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
  addFields(fields: FieldDescription[]): void;
}

/** The part of pg's Connection this touches: the statement's messages. */
interface ConnectionInternals {
  bind(config: object): void;
  sync(): void;
}

interface QueryInternals {
  name: string;
  portal: string;
  values: unknown[] | undefined;
  binary: boolean | undefined;
  rows: number | undefined;
  _result: ResultInternals;
  _checkForMultirow(): void;
  _accumulateRows: unknown;
  callback: unknown;
  hasBeenParsed(connection: ConnectionInternals): boolean;
  handleError(error: unknown, connection: ConnectionInternals): void;
  _getRows(connection: ConnectionInternals, rows: number | undefined): void;
}

interface KeptParser {
  fields: FieldDescription[];
  parsers: unknown[] | undefined;
  empty: object | null;
}

/**
 * Per connection, per statement name: the parser built from the statement's row description there. Bounded by
 * connections × statements; a connection's entry goes with the connection.
 */
const keptOn = new WeakMap<ConnectionInternals, Map<string, KeptParser>>();

/** Statements run without a Describe since start (for the test that guards pg's internals). */
let describesSkipped = 0;

function keptOf(connection: ConnectionInternals): Map<string, KeptParser> {
  let kept = keptOn.get(connection);
  if (!kept) keptOn.set(connection, (kept = new Map()));
  return kept;
}

class KeptParserQuery extends pg.Query {
  /** The kept parsers of the connection this query runs on (set when it is sent). */
  private kept: Map<string, KeptParser> | undefined;

  constructor(config: pg.QueryConfig & { name: string }, callback: ConstructorParameters<typeof pg.Query>[2]) {
    // pg copies a config object through its property descriptors (~2 % of GET /users/self's CPU); text and values
    // passed apart are taken as they are.
    super(config.text, config.values, callback);
    (this as unknown as QueryInternals).name = config.name;
  }

  /** pg's prepare, without Parse and Describe for a statement this connection has described already. */
  prepare(connection: ConnectionInternals): void {
    const self = this as unknown as QueryInternals;
    this.kept = keptOf(connection);
    const known = this.kept.get(self.name);
    if (!known || !self.hasBeenParsed(connection)) {
      (pg.Query.prototype as unknown as { prepare(c: ConnectionInternals): void }).prepare.call(this, connection);
      return;
    }
    try {
      connection.bind({
        portal: self.portal,
        statement: self.name,
        values: self.values,
        binary: self.binary,
        valueMapper: pgUtils.prepareValue,
      });
    } catch (error) {
      // Nothing was sent: the Sync alone ends the round trip (pg would also Close the statement, which it parsed
      // in the same batch; here it stays prepared for the next call).
      connection.sync();
      self.handleError(error, connection);
      return;
    }
    describesSkipped++;
    this.useParser(known);
    self._getRows(connection, self.rows);
  }

  /** pg's handleRowDescription (the statement's first call on this connection), keeping the parser it builds. */
  handleRowDescription(message: { fields: FieldDescription[] }): void {
    const self = this as unknown as QueryInternals;
    self._checkForMultirow();
    const result = self._result;
    result.addFields(message.fields);
    this.kept?.set(self.name, {
      fields: message.fields,
      parsers: result._parsers,
      empty: result._prebuiltEmptyResultObject,
    });
    self._accumulateRows = self.callback || !this.listeners('row').length;
  }

  private useParser(known: KeptParser): void {
    const self = this as unknown as QueryInternals;
    self._checkForMultirow();
    const result = self._result;
    result.fields = known.fields;
    result._parsers = known.parsers;
    result._prebuiltEmptyResultObject = known.empty;
    self._accumulateRows = self.callback || !this.listeners('row').length;
  }
}

/** Runs a named statement on `client` as client.query(config) would, keeping its row parser between calls. */
export function queryKeepingParser(client: pg.PoolClient, config: pg.QueryConfig & { name: string }) {
  return new Promise<pg.QueryResult>((resolve, reject) => {
    runKeepingParser(client, config, (error, result) => {
      if (error) {
        // As pg does for its own promises: a stack that leads back here, not to the socket's read.
        Error.captureStackTrace(error);
        reject(error);
      } else resolve(result!);
    });
  });
}

/** queryKeepingParser with a callback and no promise (database.ts: a server's pooled statements). */
export function runKeepingParser(
  client: pg.PoolClient,
  config: pg.QueryConfig & { name: string },
  callback: (error: Error | null, result?: pg.QueryResult) => void,
): void {
  client.query(new KeptParserQuery(config, callback as never));
}

/** For the test that guards the internals: how many statements ran without a Describe. */
export function describesSkippedCount(): number {
  return describesSkipped;
}
