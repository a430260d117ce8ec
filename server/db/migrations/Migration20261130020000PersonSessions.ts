import { SchemaMigration } from './schemaMigration.js';

/** Staff sign in as people with the organisation's identity provider: their sessions (decision 031). */
export class Migration20261130020000PersonSessions extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('person_session', (table) => {
        table.increments('id').primary();
        table.string('token_hash', 64).notNullable().unique();
        table.string('subject', 255).notNullable();
        table.string('email', 320).notNullable();
        table.string('name', 255).nullable();
        table.string('roles', 64).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('expires_at', { useTz: true }).notNullable();
        table.timestamp('ended_at', { useTz: true }).nullable();
      }),
    );
  }
}
