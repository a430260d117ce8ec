/**
 * SQL text reads run through statements prepared once per connection
 * (platform/sql/preparedStatements.ts): they must answer what MikroORM's `execute` answers, see what
 * a transaction sees, and never see another transaction's uncommitted rows.
 */
import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { selectRows } from '../../platform/sql/sqlText.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const SQL = 'select * from offerer where allowed_on_adage = ? and created_datetime <= ? and id >= ? order by id';

describe('prepared SQL text reads', () => {
  let database: TestDatabase;
  let em: EntityManager;
  let ids: number[];
  let sirens = 100_000_000;

  const anOfferer = (allowedOnAdage: boolean, into: EntityManager = em) =>
    into.create(Offerer, {
      name: `Offerer ${sirens}`,
      siren: String((sirens += 1)),
      allowedOnAdage,
      createdDatetime: new Date('2026-01-02T03:04:05.678Z'),
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    em = database.orm.em.fork();
    const offerers = [anOfferer(true), anOfferer(false), anOfferer(true), anOfferer(true)];
    await em.flush();
    ids = offerers.map((offerer) => offerer.id);
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
  });

  it("answers the rows MikroORM's execute answers, the same types, whatever the parameters", async () => {
    for (const params of [
      [true, new Date(), 0],
      [false, new Date(), 0],
      [true, new Date(), ids[2]],
    ]) {
      const expected = await em.getConnection().execute(SQL, params);
      const rows = await selectRows<Record<string, unknown>>(em, SQL, params);
      expect(rows).toEqual(expected);
    }
    const rows = await selectRows<{ id: number }>(em, SQL, [true, new Date(), ids[2]]);
    expect(rows.map((row) => row.id)).toEqual([ids[2], ids[3]]);
    expect(await selectRows(em, SQL, [true, new Date('2000-01-01T00:00:00Z'), 0])).toEqual([]);
  });

  it("sees its own transaction's rows", async () => {
    await database.orm.em.fork().transactional(async (tx) => {
      const offerer = anOfferer(true, tx);
      await tx.flush();
      const rows = await selectRows<{ id: number }>(tx, SQL, [true, new Date(), offerer.id]);
      expect(rows.map((row) => row.id)).toEqual([offerer.id]);
      tx.remove(offerer);
    });
  });

  it("never sees another transaction's uncommitted rows", async () => {
    let committed = false;
    let outside: Promise<{ sawRow: boolean; committedThen: boolean }> | undefined;
    await database.orm.em.fork().transactional(async (tx) => {
      const offerer = anOfferer(true, tx);
      await tx.flush();
      // On SQLite the read waits for the one connection; on PostgreSQL it reads beside the transaction.
      outside = selectRows<{ id: number }>(database.orm.em.fork(), SQL, [true, new Date(), offerer.id]).then(
        (rows) => ({ sawRow: rows.some((row) => row.id === offerer.id), committedThen: committed }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    committed = true;
    const { sawRow, committedThen } = await outside!;
    if (sawRow) expect(committedThen).toBe(true);
    else expect(committedThen).toBe(false);
  });

  it('gives the connection back when a statement fails', async () => {
    await expect(selectRows(em, 'select no_such_column from offerer where id = ?', [1])).rejects.toThrow(
      /no_such_column/,
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const rows = await selectRows<{ id: number }>(em, SQL, [false, new Date(), 0]);
      expect(rows.map((row) => row.id)).toEqual([ids[1]]);
    }
  });

  it('names the columns again when a migration changes what `*` stands for', async () => {
    const connection = em.getConnection();
    await connection.execute('create table prepared_probe (id integer primary key, label varchar(20))');
    await connection.execute("insert into prepared_probe (id, label) values (1, 'one')");
    const probe = () => selectRows<Record<string, unknown>>(em, 'select * from prepared_probe where id >= ?', [1]);
    expect(await probe()).toEqual([{ id: 1, label: 'one' }]);
    await connection.execute("alter table prepared_probe add column note varchar(20) default 'added'");
    expect(await probe()).toEqual([{ id: 1, label: 'one', note: 'added' }]);
  });
});
