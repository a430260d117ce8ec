import type { EntityClass, EntityManager } from '@mikro-orm/core';
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

/**
 * Multi-row INSERT ... RETURNING id of plain rows (entity property names, relations by id), in the
 * transaction of `em`, `chunkRows` rows per statement: no entity is built or tracked for rows that
 * are only written, and no query builder runs for them. The ids come back in the rows' order.
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
  const width = properties.length;
  const columns = properties.map((property) => meta.properties[property as keyof T & string].fieldNames[0]);
  const into = `insert into ${meta.tableName} (${columns.join(', ')}) values`;
  const tuple = `(${placeholders(width)})`;
  const sqlFor = (count: number) => `${into} ${tuple}${`, ${tuple}`.repeat(count - 1)} returning id`;
  const fullChunk = Math.min(chunkRows, rows.length);
  const fullChunkSql = sqlFor(fullChunk);
  const ids = new Array<number>(rows.length);
  for (let start = 0; start < rows.length; start += chunkRows) {
    const end = Math.min(start + chunkRows, rows.length);
    // Plain loops into one preallocated array: 2500 rows of 12 columns went through flatMap's
    // per-row arrays before, a fifth of the inserts' time (issue 19's profile of POST dates).
    const params = new Array<unknown>((end - start) * width);
    let at = 0;
    for (let index = start; index < end; index += 1) {
      const row = rows[index];
      for (let column = 0; column < width; column += 1) {
        const value = row[properties[column]];
        params[at++] = value instanceof Date ? platform.processDateProperty(value) : value;
      }
    }
    const sql = end - start === fullChunk ? fullChunkSql : sqlFor(end - start);
    // RETURNING answers rows as a select does, in the transaction of `em`.
    const inserted = await selectRows<{ id: number | string }>(em, sql, params);
    if (inserted.length !== end - start)
      throw new Error(`Inserted ${end - start} rows but got ${inserted.length} ids back`);
    for (let index = 0; index < inserted.length; index += 1) ids[start + index] = Number(inserted[index].id);
  }
  return ids;
}
