import { SchemaMigration } from './schemaMigration.js';

/** The running job workers and the types they handle: a job no running process handles is seen (decision 023). */
export class Migration20261128050000JobWorkers extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('job_worker', (table) => {
        table.string('id', 36).notNullable().primary();
        table.text('types').notNullable();
        table.timestamp('seen_at', { useTz: true }).notNullable();
      }),
    );
  }
}
