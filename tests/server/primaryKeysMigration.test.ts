import type { MikroORM } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/orm.js';
import { isPostgresTestRun } from '../support/database.js';

/** SQLite only: on PostgreSQL a primary key was never nullable, and the migration does nothing. */
describe.skipIf(isPostgresTestRun())('primary keys made NOT NULL on an SQLite database that holds data', () => {
  let orm: MikroORM;
  const rows = (sql: string) => orm.em.getConnection().execute(sql);

  beforeAll(async () => {
    orm = await openDatabase({ kind: 'sqlite', path: ':memory:' });
    await orm.getMigrator().up({ to: 'Migration20261122050000Collective' });
    await rows(`insert into national_program (id, name) values (4, 'Collège au cinéma')`);
    await rows(`insert into educational_domain (id, name) values (1, 'Cinéma')`);
    await rows(`insert into educational_domain_program (domain_id, program_id) values (1, 4)`);
    await rows(`insert into student_level (id, name, position) values ('COLLEGE_4', 'Collège - 4e', 1)`);
    await rows(
      `insert into catalogue_product (ean, title, category, compliant) values ('9782123456803', 'A book', 'LIVRE_PAPIER', 1)`,
    );
    await orm.getMigrator().up();
  });
  afterAll(() => orm?.close(true));

  it('keeps every row and the rows that reference them', async () => {
    expect(await rows('select domain_id, program_id from educational_domain_program')).toEqual([
      { domain_id: 1, program_id: 4 },
    ]);
    expect(await rows('select id from student_level')).toEqual([{ id: 'COLLEGE_4' }]);
    expect(await rows('select ean from catalogue_product')).toEqual([{ ean: '9782123456803' }]);
  });

  it('refuses a NULL key from then on', async () => {
    await expect(rows(`insert into student_level (id, name, position) values (null, 'Lycée', 2)`)).rejects.toThrow(
      /NOT NULL constraint failed: student_level.id/,
    );
    await expect(
      rows(`insert into catalogue_product (ean, title, category, compliant) values (null, 'B', 'LIVRE_PAPIER', 1)`),
    ).rejects.toThrow(/NOT NULL constraint failed: catalogue_product.ean/);
  });
});
