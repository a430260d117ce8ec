import type { EntityManager } from '@mikro-orm/core';
import type { AbstractSqlConnection } from '@mikro-orm/knex';
import { inSpan, SpanKind } from '../tracing.js';

/**
 * SQL text that answers rows (selects, INSERT ... RETURNING) through statements prepared once per
 * connection (issue 19).
 *
 * MikroORM runs SQL text by writing every parameter into the text (`formatQuery`) and handing it
 * to knex, which prepares it again on each call; the driver then builds one object per row, a
 * property at a time. On SQLite, a page of 50 offers of 38 columns took 590 µs that way in libsql
 * alone, against 290 µs through a statement prepared once that answers arrays, turned into
 * objects by a function written out for the statement's columns; MikroORM's and knex's own work
 * per query comes on top of the first figure. On PostgreSQL the statement is a named one, which
 * the server parses and plans once per connection, and rows also come as arrays.
 *
 * The connection is the one knex would use: the transaction's, inside one; otherwise one from the
 * pool, given back after, so that on SQLite a read waits for a transaction that holds the one
 * connection, as before. Parameters other than numbers, text, booleans, dates and null keep
 * MikroORM's path.
 */

type Row = Record<string, unknown>;

interface LibSqlStatement {
  readonly reader: boolean;
  raw(toggle?: boolean): LibSqlStatement;
  all(parameters: readonly unknown[]): unknown[][];
  columns(): { name: string }[];
}

interface LibSqlDatabase {
  prepare(sql: string): LibSqlStatement;
}

interface PgClient {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
    rowMode: 'array';
  }): Promise<{ rows: unknown[][]; fields: { name: string }[] }>;
}

interface KnexClient {
  readonly driverName: string;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

interface Prepared {
  statement: LibSqlStatement;
  rowOf: (values: unknown[]) => Row;
  /** The number of columns `rowOf` was written for. */
  width: number;
}

/** Statements kept per connection at most: SQL texts differ by their `in (...)` lengths. */
const STATEMENTS_PER_CONNECTION = 500;

const preparedOf = new WeakMap<LibSqlDatabase, Map<string, Prepared>>();

/**
 * The rows a statement answers, as MikroORM's `execute` answers them, in the transaction of `em`
 * if it has one; or null where this path does not apply (the caller then runs `execute`).
 */
export function runPrepared(em: EntityManager, sql: string, params: readonly unknown[]): Promise<Row[]> | null {
  // Inside a transaction, knex's transaction client hands out the transaction's connection.
  const transaction = em.getTransactionContext<{ client: KnexClient } | undefined>();
  const client = transaction?.client ?? ((em.getConnection() as AbstractSqlConnection).getKnex().client as KnexClient);
  const driver = client.driverName;
  if (driver !== 'libsql' && driver !== 'pg') return null;
  const bound = bindable(params, driver);
  if (!bound) return null;
  return driver === 'libsql' ? runOnSqlite(client, sql, bound) : runOnPostgres(client, sql, bound);
}

/**
 * libsql has no OpenTelemetry instrumentation (pg has one, which traces the PostgreSQL path): the
 * statements run here get a span of ours, the statement's text without its values.
 */
function runOnSqlite(client: KnexClient, sql: string, bound: unknown[]): Promise<Row[]> {
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  return inSpan(
    `${operation} sqlite`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': sql },
    },
    () => runOnSqliteConnection(client, sql, bound),
  );
}

async function runOnSqliteConnection(client: KnexClient, sql: string, bound: unknown[]): Promise<Row[]> {
  const database = (await client.acquireConnection()) as LibSqlDatabase;
  try {
    let prepared = prepare(database, sql);
    let values = prepared.statement.all(bound);
    if (values.length > 0 && values[0].length !== prepared.width) {
      // SQLite prepared the statement again after a change of schema (a migration by another
      // process), and `*` now stands for other columns: name them again.
      preparedOf.get(database)?.delete(sql);
      prepared = prepare(database, sql);
      values = prepared.statement.all(bound);
    }
    return rowsOf(values, prepared.rowOf);
  } finally {
    await client.releaseConnection(database);
  }
}

interface NamedStatement {
  name: string;
  /** The text with PostgreSQL's numbered placeholders. */
  text: string;
  rowOf: ((values: unknown[]) => Row) | null;
  width: number;
}

/** PostgreSQL's refusal to run a prepared statement whose columns a change of schema changed. */
const CACHED_PLAN_CHANGED = '0A000';

/**
 * Statements named so far, the same names on every connection. A name is never given to another
 * text: the pg driver refuses that on a connection that prepared the name already.
 */
const namedStatements = new Map<string, NamedStatement>();
let statementsNamed = 0;

async function runOnPostgres(client: KnexClient, sql: string, bound: unknown[]): Promise<Row[]> {
  let named = namedStatements.get(sql);
  if (!named) {
    if (namedStatements.size >= STATEMENTS_PER_CONNECTION) namedStatements.clear();
    let position = 0;
    named = { name: nextName(), text: sql.replace(/\?/g, () => `$${++position}`), rowOf: null, width: 0 };
    namedStatements.set(sql, named);
  }
  const connection = (await client.acquireConnection()) as PgClient;
  try {
    const run = () => connection.query({ name: named.name, text: named.text, values: bound, rowMode: 'array' });
    const result = await run().catch((error: { code?: string }) => {
      if (error.code !== CACHED_PLAN_CHANGED) throw error;
      // A migration changed what `*` stands for: prepare the text again, under a name of its own.
      named.name = nextName();
      return run();
    });
    if (!named.rowOf || named.width !== result.fields.length) {
      named.rowOf = rowBuilder(result.fields.map((field) => field.name));
      named.width = result.fields.length;
    }
    return rowsOf(result.rows, named.rowOf);
  } finally {
    await client.releaseConnection(connection);
  }
}

function nextName(): string {
  statementsNamed += 1;
  return `prepared_${statementsNamed}`;
}

function rowsOf(values: unknown[][], rowOf: (values: unknown[]) => Row): Row[] {
  const rows = new Array<Row>(values.length);
  for (let index = 0; index < values.length; index += 1) rows[index] = rowOf(values[index]);
  return rows;
}

function prepare(database: LibSqlDatabase, sql: string): Prepared {
  let statements = preparedOf.get(database);
  if (!statements) preparedOf.set(database, (statements = new Map<string, Prepared>()));
  let prepared = statements.get(sql);
  if (!prepared) {
    const statement = database.prepare(sql);
    if (!statement.reader) throw new Error('runPrepared runs statements that answer rows only');
    const names = statement.columns().map((column) => column.name);
    prepared = { statement: statement.raw(true), rowOf: rowBuilder(names), width: names.length };
    if (statements.size >= STATEMENTS_PER_CONNECTION) statements.clear();
    statements.set(sql, prepared);
  }
  return prepared;
}

/**
 * One object per row with the columns' names, written out: the same shape for every row of a
 * statement. Names are the statement's own columns, quoted as JSON; a name given twice keeps its
 * last value, as libsql's objects do.
 */
function rowBuilder(names: string[]): (values: unknown[]) => Row {
  const properties = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`).join(',\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- written from the statement's columns, as said above
  return new Function('values', `return {\n${properties}\n};`) as (values: unknown[]) => Row;
}

/**
 * The parameters as knex binds them (on SQLite, dates as epoch milliseconds and booleans as 0/1;
 * the pg driver writes dates and booleans itself), or null for any other kind of value.
 */
function bindable(params: readonly unknown[], driver: 'libsql' | 'pg'): unknown[] | null {
  const bound = new Array<unknown>(params.length);
  for (let index = 0; index < params.length; index += 1) {
    const value = params[index];
    if (value === null || value === undefined) bound[index] = null;
    else if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') bound[index] = value;
    else if (typeof value === 'boolean') bound[index] = driver === 'pg' ? value : value ? 1 : 0;
    else if (value instanceof Date) bound[index] = driver === 'pg' ? value : value.getTime();
    else return null;
  }
  return bound;
}
