import type { EntityClass, EntityManager } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { runPrepared } from './preparedStatements.js';

/**
 * Reads that every poll makes are written as SQL text, the same on SQLite and PostgreSQL, with
 * `?` placeholders (knex numbers them for PostgreSQL). Building the same query with the query
 * builder or knex on every request measured more than running it (issue 19's profiles). Every
 * statement that answers rows goes through here, on statements prepared once per connection
 * (preparedStatements.ts).
 */
export function selectRows<Row>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<Row[]> {
  return (
    (runPrepared(em, sql, params) as Promise<Row[]> | null) ??
    // In the transaction of `em` if it has one: on SQLite's one connection, a read outside it would wait for its end.
    em.getConnection().execute<Row[]>(sql, [...params], 'all', em.getTransactionContext())
  );
}

/** `?, ?, ?` for an `in (...)` of `count` values; callers never ask for none (`in ()` is no SQL). */
export function placeholders(count: number): string {
  if (count < 1) throw new Error('An in (...) list needs at least one value');
  return count === 1 ? '?' : `?${', ?'.repeat(count - 1)}`;
}

/** The same value in every row: dates by their moment, the rest by identity. */
function sameInEveryRow(rows: readonly Record<string, unknown>[], property: string): boolean {
  const first = rows[0][property];
  const moment = first instanceof Date ? first.getTime() : null;
  for (let index = 1; index < rows.length; index += 1) {
    const value = rows[index][property];
    if (moment === null ? value !== first : !(value instanceof Date) || value.getTime() !== moment) return false;
  }
  return true;
}

/**
 * Multi-row INSERT ... RETURNING id of plain rows (entity property names, relations by id), in the
 * transaction of `em`, `chunkRows` rows per statement: no entity is built or tracked for rows that
 * are only written, and no query builder runs for them. The ids come back in the rows' order.
 *
 * A column with the same value in every row (the event, the creation time) is bound once per
 * statement, in the select list of `insert ... select ... from (values ...)`; only the columns
 * that vary are bound per row. Binding is what the driver spends its time on: 2500 dates of 12
 * columns took 15 ms in libsql against 9 ms with their 5 varying columns (issue 19).
 */
export async function insertReturningIds<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly Record<string, unknown>[],
  chunkRows: number,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const meta = em.getMetadata().get(entity.name);
  const platform = em.getPlatform();
  const properties = Object.keys(rows[0]);
  const isShared = properties.map((property) => rows.length > 1 && sameInEveryRow(rows, property));
  // A VALUES row has at least one column: when every column is shared, the first one is bound per row.
  if (isShared.every(Boolean)) isShared[0] = false;
  const varying = properties.filter((_, column) => !isShared[column]);
  const shared = properties.filter((_, column) => isShared[column]);
  const propertyOf = (property: string) => meta.properties[property as keyof T & string];
  // PostgreSQL types a subquery's parameters as text: each is cast to its column's type, without
  // a length, so that a value too long is refused by the column as in a plain insert, not cut.
  const typed =
    platform instanceof PostgreSqlPlatform
      ? (property: string) => `cast(? as ${propertyOf(property).columnTypes[0].replace(/\(.*\)$/, '')})`
      : () => '?';
  const columns = properties.map((property) => propertyOf(property).fieldNames[0]).join(', ');
  let varyingAt = 0;
  const selectList = properties
    .map((property, column) => (isShared[column] ? typed(property) : `v.column${(varyingAt += 1)}`))
    .join(', ');
  const firstTuple = `(${varying.map(typed).join(', ')})`;
  const tuple = `(${placeholders(varying.length)})`;
  const sqlFor = (count: number) =>
    `insert into ${meta.tableName} (${columns}) select ${selectList} from (values ${firstTuple}${`, ${tuple}`.repeat(count - 1)}) as v returning id`;
  const bindable = (value: unknown) => (value instanceof Date ? platform.processDateProperty(value) : value);
  const fullChunk = Math.min(chunkRows, rows.length);
  const fullChunkSql = sqlFor(fullChunk);
  const ids = new Array<number>(rows.length);
  for (let start = 0; start < rows.length; start += chunkRows) {
    const end = Math.min(start + chunkRows, rows.length);
    // Plain loops into one preallocated array: flatMap's per-row arrays cost a fifth of the
    // inserts' time (issue 19's profile of POST dates).
    const params = new Array<unknown>(shared.length + (end - start) * varying.length);
    let at = 0;
    for (const property of shared) params[at++] = bindable(rows[start][property]);
    for (let index = start; index < end; index += 1) {
      const row = rows[index];
      for (const property of varying) params[at++] = bindable(row[property]);
    }
    const sql = end - start === fullChunk ? fullChunkSql : sqlFor(end - start);
    // RETURNING answers rows as a select does, in the transaction of `em`.
    const inserted = await selectRows<{ id: number | string }>(em, sql, params);
    if (inserted.length !== end - start)
      throw new Error(`Inserted ${end - start} rows but got ${inserted.length} ids back`);
    // Neither engine promises RETURNING's order; both number the rows as the VALUES scan gives
    // them, in order, so the ids in ascending order are the rows' order.
    const chunkIds = inserted.map((row) => Number(row.id)).sort((left, right) => left - right);
    for (let index = 0; index < chunkIds.length; index += 1) ids[start + index] = chunkIds[index];
  }
  return ids;
}
