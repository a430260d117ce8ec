import type { MikroORM } from '@mikro-orm/core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Job } from '../../platform/jobs/Job.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

export interface JobDatabase {
  readonly database: TestDatabase;
  readonly orm: MikroORM;
}

/** For a test file of the job machinery: a database of its own, with no job in it as each test starts. */
export function useJobDatabase(): JobDatabase {
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });
  beforeEach(async () => {
    await database!.orm.em.fork().nativeDelete(Job, {});
  });

  return {
    get database() {
      return database!;
    },
    get orm() {
      return database!.orm;
    },
  };
}
