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
  const columns = properties.map((property) => meta.properties[property as keyof T & string].fieldNames[0]);
  const tuple = `(${placeholders(columns.length)})`;
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += chunkRows) {
    const chunk = rows.slice(start, start + chunkRows);
    const params = chunk.flatMap((row) =>
      properties.map((property) => {
        const value = row[property];
        return value instanceof Date ? platform.processDateProperty(value) : value;
      }),
    );
    const sql = `insert into ${meta.tableName} (${columns.join(', ')}) values ${chunk.map(() => tuple).join(', ')} returning id`;
    // RETURNING answers rows as a select does, in the transaction of `em`.
    const inserted = await selectRows<{ id: number | string }>(em, sql, params);
    if (inserted.length !== chunk.length)
      throw new Error(`Inserted ${chunk.length} rows but got ${inserted.length} ids back`);
    ids.push(...inserted.map((row) => Number(row.id)));
  }
  return ids;
}
