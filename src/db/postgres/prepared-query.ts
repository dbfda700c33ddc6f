import pg from 'pg';

// A named statement's run without the per-run row description. `pg` asks the server to describe
// every execution (Describe after Bind) and then, for each one, parses the column list it gets back,
// looks a type parser up per column and builds a row template of every column name: on GET
// /repos/{o}/{r} (two `SELECT *` reads of ~40-60 columns) that was ~40 µs of the ~130 µs a request
// spent in Node beyond SQLite's (CPU profile, issue 34). A prepared statement's columns cannot
// change on its connection (PostgreSQL refuses to run it then: "cached plan must not change result
// type"), so once a connection has run a statement, its shape is kept with that connection: the next
// runs send Bind, Execute and Sync only, and shape rows with a function compiled once per column list.

type Parser = (value: string) => unknown;
type RowValues = (string | null)[];

/** What one statement's rows look like on one connection. */
export type RowShape = { fields: pg.FieldDef[]; parsers: Parser[]; make: (parsers: Parser[], values: RowValues) => Record<string, unknown> };

/** The parts of pg's Query and Result this module reaches into (not in @types/pg). */
type PgResult = { fields: pg.FieldDef[]; _parsers?: Parser[]; parseRow: (values: RowValues) => unknown };
type PgConnection = { describe: (msg: unknown) => void };
type PgQueryInternals = {
  name?: string;
  _result: PgResult;
  _accumulateRows: boolean;
  prepare(connection: PgConnection): void;
  handleRowDescription(msg: { fields: pg.FieldDef[] }): void;
  handleReadyForQuery(connection: unknown): void;
};

const BaseQuery = pg.Query as unknown as new (text: string, values: unknown[], callback: (err: Error | null, res: pg.QueryResult) => void) => PgQueryInternals;

/** Row builders by column list, shared by every connection: `{a: v[0] === null ? null : p[0](v[0]), ...}`. */
const builders = new Map<string, RowShape['make']>();
const MAX_BUILDERS = 4000;

function builderFor(names: string[]): RowShape['make'] {
  const key = names.join('\0');
  let make = builders.get(key);
  if (make) return make;
  // A column named __proto__ would set the row's prototype in a literal: such a row is built key by key.
  if (names.includes('__proto__')) {
    make = (p, v) => {
      const row: Record<string, unknown> = {};
      names.forEach((n, i) => Object.defineProperty(row, n, { value: v[i] === null ? null : p[i]!(v[i]!), enumerable: true, writable: true, configurable: true }));
      return row;
    };
  } else {
    // Later duplicates win, in the first one's place, as in pg's own rows (SELECT a.*, b.id).
    const body = names.map((n, i) => `${JSON.stringify(n)}: v[${i}] === null ? null : p[${i}](v[${i}])`).join(', ');
    make = new Function('p', 'v', `return {${body}};`) as RowShape['make'];
  }
  if (builders.size >= MAX_BUILDERS) builders.clear();
  builders.set(key, make);
  return make;
}

const noDescribe = (): void => undefined;

/**
 * One run of the named statement `name` on a connection whose known shapes are `shapes`: the
 * first run describes its rows and records their shape, later runs skip the description. Text
 * format only (hearth never asks for binary results); a shape is recorded after a successful run
 * (pg hands a failed run's ReadyForQuery to no query).
 */
export class NamedQuery extends BaseQuery {
  private readonly known: RowShape | undefined;
  private seen: RowShape | null = null;

  constructor(
    private readonly shapes: Map<string, RowShape>, name: string, text: string, values: unknown[],
    callback: (err: Error | null, res: pg.QueryResult) => void,
  ) {
    super(text, values, callback);
    this.name = name;
    const known = (this.known = shapes.get(name));
    if (!known) return;
    this._result.fields = known.fields;
    this._result._parsers = known.parsers;
    this._result.parseRow = (v) => known.make(known.parsers, v);
    // pg sets this when the row description arrives: none comes now.
    this._accumulateRows = true;
  }

  override prepare(connection: PgConnection): void {
    if (!this.known) return super.prepare(connection);
    // Bind, Execute and Sync as pg writes them, without the Describe in between.
    const describe = connection.describe;
    connection.describe = noDescribe;
    try {
      super.prepare(connection);
    } finally {
      connection.describe = describe;
    }
  }

  override handleRowDescription(msg: { fields: pg.FieldDef[] }): void {
    super.handleRowDescription(msg);
    const parsers = this._result._parsers;
    if (parsers && msg.fields.every((f) => !f.format || f.format === 'text')) {
      this.seen = { fields: msg.fields, parsers, make: builderFor(msg.fields.map((f) => f.name)) };
    }
  }

  override handleReadyForQuery(connection: unknown): void {
    // A statement that returns no rows (an INSERT without RETURNING) has no description: its shape is empty.
    if (!this.known && !this.seen && this._result.fields.length === 0) this.seen = { fields: [], parsers: [], make: builderFor([]) };
    if (this.seen) this.shapes.set(this.name!, this.seen);
    super.handleReadyForQuery(connection);
  }
}
