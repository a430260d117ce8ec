import type { MikroORM } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/orm.js';
import { isPostgresTestRun } from '../support/database.js';

/**
 * SQLite only: there the migration rewrites the offer table's definition, on PostgreSQL it drops
 * the constraints (every PostgreSQL run migrates its fresh database, and stores unknown flags).
 */
describe.skipIf(isPostgresTestRun())(
  'offer accessibility made nullable on an SQLite database that holds offers',
  () => {
    let orm: MikroORM;
    const rows = (sql: string) => orm.em.getConnection().execute(sql);
    const flags =
      'audio_disability_compliant as audio, mental_disability_compliant as mental, ' +
      'motor_disability_compliant as motor, visual_disability_compliant as visual';

    beforeAll(async () => {
      orm = await openDatabase({ kind: 'sqlite', path: ':memory:' });
      await orm.getMigrator().up({ to: 'Migration20261126000000BackOffice' });
      // The offer alone: its venue and provider do not matter to the migration.
      await rows('pragma foreign_keys = off');
      await rows(
        `insert into offer (id, name, venue_id, provider_id, created_at, audio_disability_compliant, motor_disability_compliant)
       values (7, 'A show', 1, 1, '2026-11-22 10:00:00', 1, 0)`,
      );
      await rows('pragma foreign_keys = on');
      await orm.getMigrator().up();
    });
    afterAll(() => orm?.close(true));

    it('keeps the flags an offer had', async () => {
      expect(await rows(`select id, ${flags} from offer`)).toEqual([
        { id: 7, audio: 1, mental: 0, motor: 0, visual: 0 },
      ]);
    });

    it('stores an unknown flag as NULL from then on, and still defaults to false', async () => {
      await rows('update offer set motor_disability_compliant = null where id = 7');
      await rows('pragma foreign_keys = off');
      await rows(`insert into offer (id, name, venue_id, provider_id, created_at) values (8, 'B', 1, 1, '2026-11-22')`);
      await rows('pragma foreign_keys = on');
      expect(await rows(`select id, ${flags} from offer order by id`)).toEqual([
        { id: 7, audio: 1, mental: 0, motor: null, visual: 0 },
        { id: 8, audio: 0, mental: 0, motor: 0, visual: 0 },
      ]);
    });
  },
);
