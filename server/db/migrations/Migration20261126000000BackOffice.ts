import { SchemaMigration } from './schemaMigration.js';

/**
 * The back office: when each key was last used (shown to staff, written at most once a minute per
 * key), and the sessions that staff open with an internal key.
 */
export class Migration20261126000000BackOffice extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.alterTable('api_key', (table) => {
        table.timestamp('last_used_at', { useTz: true }).nullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('staff_session', (table) => {
        table.increments('id').primary();
        table.string('token_hash', 64).notNullable().unique();
        table.integer('api_key_id').unsigned().notNullable().references('api_key.id').onDelete('cascade');
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('expires_at', { useTz: true }).notNullable();
        table.timestamp('ended_at', { useTz: true }).nullable();
      }),
    );
  }
}
