import { SchemaMigration } from './schemaMigration.js';

/** The integrator's console: the requests made with providers' keys, kept 7 days and capped per provider. */
export class Migration20261128020000RequestLog extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('request_log', (table) => {
        table.increments('id').primary();
        table.integer('provider_id').notNullable();
        table.integer('api_key_id').notNullable();
        table.string('api_key_prefix', 64).notNullable();
        table.string('request_id', 64).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.string('method', 10).notNullable();
        table.text('path').notNullable();
        table.text('query').nullable();
        table.string('operation_id', 100).nullable();
        table.integer('status').notNullable();
        table.double('duration_ms').notNullable();
        table.text('request_body').nullable();
        table.boolean('request_body_truncated').notNullable();
        table.text('response_body').nullable();
        table.boolean('response_body_truncated').notNullable();
        table.index(['provider_id', 'id']);
        table.index(['request_id']);
        table.index(['created_at']);
      }),
    );
  }
}
