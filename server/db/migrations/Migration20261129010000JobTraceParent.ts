import { SchemaMigration } from './schemaMigration.js';

/** A job keeps the trace context of the request that queued it: its runs join that trace. */
export class Migration20261129010000JobTraceParent extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.alterTable('job', (table) => {
        table.string('trace_parent', 128).nullable();
      }),
    );
  }
}
