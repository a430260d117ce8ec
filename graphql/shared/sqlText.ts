import type { EntityManager } from '@mikro-orm/core';

/**
 * Reads that every poll makes are written as SQL text, the same on SQLite and PostgreSQL, with
 * `?` placeholders (knex numbers them for PostgreSQL). Building the same query with the query
 * builder or knex on every request measured more than running it (issue 19's profiles).
 */
export function selectRows<Row>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<Row[]> {
  return em.getConnection().execute<Row[]>(sql, [...params]);
}

/** `?, ?, ?` for an `in (...)` of `count` values; callers never ask for none (`in ()` is no SQL). */
export function placeholders(count: number): string {
  if (count < 1) throw new Error('An in (...) list needs at least one value');
  return count === 1 ? '?' : `?${', ?'.repeat(count - 1)}`;
}
