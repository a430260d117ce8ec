/**
 * Multi-row inserts by SQL text (platform/sql/sqlText.ts): the columns with the same value in
 * every row are bound once per statement, the others per row. What is stored must be what a plain
 * insert stores, the ids must come back in the rows' order, and a value a column refuses must be
 * refused, never cut to fit.
 */
import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { insertReturningIds } from '../../platform/sql/sqlText.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

describe('insertReturningIds', () => {
  let database: TestDatabase;
  let sirens = 200_000_000;
  const created = new Date('2026-03-04T05:06:07.089Z');

  const rowsOf = (count: number, vary: (index: number) => Partial<Record<string, unknown>> = () => ({})) =>
    Array.from({ length: count }, (_, index) => ({
      name: 'Same name',
      siren: String((sirens += 1)),
      allowedOnAdage: true,
      createdDatetime: created,
      ...vary(index),
    }));

  const stored = async (em: EntityManager, ids: number[]) => {
    const offerers = await em.fork().find(Offerer, { id: { $in: ids } });
    const byId = new Map(offerers.map((offerer) => [offerer.id, offerer]));
    return ids.map((id) => {
      const offerer = byId.get(id);
      return offerer && { ...offerer, createdDatetime: offerer.createdDatetime.toISOString() };
    });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
  });

  it('stores every row, shared and varying columns alike, and answers their ids in order', async () => {
    const em = database.orm.em.fork();
    const moments = [new Date('2026-01-01T00:00:00.000Z'), new Date('2027-06-30T23:59:59.999Z')];
    // Five rows in chunks of two: two full statements and one of a single row.
    const rows = rowsOf(5, (index) => ({ allowedOnAdage: index % 2 === 0, createdDatetime: moments[index % 2] }));
    const ids = await em.transactional((tx) => insertReturningIds(tx, Offerer, rows, 2));

    expect(ids).toHaveLength(5);
    expect([...ids].sort((left, right) => left - right)).toEqual(ids);
    expect(await stored(em, ids)).toEqual(
      rows.map((row, index) => ({
        id: ids[index],
        name: 'Same name',
        siren: row.siren,
        allowedOnAdage: index % 2 === 0,
        createdDatetime: moments[index % 2].toISOString(),
      })),
    );
  });

  it('takes one row, and rows that are all alike but for their key', async () => {
    const em = database.orm.em.fork();
    const single = rowsOf(1);
    const [id] = await insertReturningIds(em, Offerer, single, 500);
    expect(await stored(em, [id])).toEqual([
      { id, name: 'Same name', siren: single[0].siren, allowedOnAdage: true, createdDatetime: created.toISOString() },
    ]);

    // Equal dates that are different Date objects still count as one shared value.
    const alike = rowsOf(3, () => ({ createdDatetime: new Date(created.getTime()) }));
    const ids = await em.transactional((tx) => insertReturningIds(tx, Offerer, alike, 500));
    expect((await stored(em, ids)).map((offerer) => offerer?.createdDatetime)).toEqual(
      Array(3).fill(created.toISOString()),
    );
  });

  it('never cuts a value too long for its column: PostgreSQL refuses it, shared or not, and writes nothing', async () => {
    const em = database.orm.em.fork();
    const before = await em.count(Offerer);
    const tooLong = 'x'.repeat(141);
    // Shared by both rows, then in one row only: a cast to the column's type must not cut it to 140.
    for (const rows of [rowsOf(2, () => ({ name: tooLong })), rowsOf(2, (index) => (index ? { name: tooLong } : {}))]) {
      const insert = em.fork().transactional((tx) => insertReturningIds(tx, Offerer, rows, 500));
      if (database.engine === 'postgresql') await expect(insert).rejects.toThrow(/too long/);
      else {
        // SQLite does not enforce a varchar's length: the row goes in whole, never cut.
        const ids = await insert;
        expect((await stored(em, ids)).map((offerer) => offerer?.name.length)).toContain(141);
        await em.fork().nativeDelete(Offerer, { id: { $in: ids } });
      }
    }
    expect(await em.count(Offerer)).toBe(before);
  });
});
