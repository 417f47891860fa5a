// A named prepared statement answers the same columns every time, yet node-postgres rebuilds its row parser from
// the row description of every answer (pg/lib/result.js addFields: a type-parser look-up and a property per
// column, then a copy of the empty row object). For the bearer check folded with the ~60-column user row that
// was ~14 % of the server's CPU on GET /users/self (a --cpu-prof under load; docs/oauth.md). This query keeps
// what addFields built per statement name and reuses it while the description is the same (names, types and
// formats compared column by column: a change, say after a migration, builds a new one as pg would).
//
// It leans on pg's Query and Result internals (`_result`, `_parsers`, `_prebuiltEmptyResultObject`, pg 8.x);
// src/db/kept-row-parser.test.ts fails if they change shape.
import pg from 'pg';

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

interface QueryInternals {
  _result: ResultInternals;
  _checkForMultirow(): void;
  _accumulateRows: unknown;
  callback: unknown;
}

interface KeptParser {
  fields: FieldDescription[];
  parsers: unknown[] | undefined;
  empty: object | null;
}

/** Per statement name: the parser built from its last row description. Bounded by the number of statements. */
const kept = new Map<string, KeptParser>();

function sameFields(a: FieldDescription[], b: FieldDescription[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

class KeptParserQuery extends pg.Query {
  /** pg's handleRowDescription, with the parser taken from `kept` when the description is unchanged. */
  handleRowDescription(message: { fields: FieldDescription[] }): void {
    const self = this as unknown as QueryInternals & { name: string };
    self._checkForMultirow();
    const result = self._result;
    const known = kept.get(self.name);
    if (known && sameFields(known.fields, message.fields)) {
      result.fields = message.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.empty;
    } else {
      result.addFields(message.fields);
      kept.set(self.name, {
        fields: message.fields,
        parsers: result._parsers,
        empty: result._prebuiltEmptyResultObject,
      });
    }
    self._accumulateRows = self.callback || !this.listeners('row').length;
  }
}

/** Runs a named statement on `client` as client.query(config) would, keeping its row parser between calls. */
export function queryKeepingParser(client: pg.PoolClient, config: pg.QueryConfig & { name: string }) {
  return new Promise<pg.QueryResult>((resolve, reject) => {
    const query = new KeptParserQuery(config, (error, result) => {
      if (error) {
        // As pg does for its own promises: a stack that leads back here, not to the socket's read.
        Error.captureStackTrace(error);
        reject(error);
      } else resolve(result as unknown as pg.QueryResult);
    });
    client.query(query);
  });
}

/** For the test that guards the internals: how many statements have a kept parser. */
export function keptParserCount(): number {
  return kept.size;
}
