// node-postgres's value mapper, used as its own Query.prepare uses it (kept-row-parser.ts).
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
