import { SchemaMigration } from './schemaMigration.js';

/** Writes that are safe to retry: the answer of each `Idempotency-Key`, kept 24 hours per API key. */
export class Migration20261128010000IdempotencyKeys extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('idempotency_key', (table) => {
        table.increments('id').primary();
        table.integer('api_key_id').notNullable();
        table.string('idempotency_key', 255).notNullable();
        table.string('fingerprint', 64).notNullable();
        table.timestamp('locked_until', { useTz: true }).nullable();
        table.integer('status').nullable();
        table.string('content_type', 100).nullable();
        table.text('body').nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('expires_at', { useTz: true }).notNullable();
        table.unique(['api_key_id', 'idempotency_key']);
        table.index(['expires_at']);
      }),
    );
  }
}
