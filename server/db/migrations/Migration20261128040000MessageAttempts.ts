import { SchemaMigration } from './schemaMigration.js';

/**
 * The integrator's console: every try at a message to a provider (the message kept only the
 * last), test events, ticketing calls recorded as messages, and a provider's messages newest first.
 */
export class Migration20261128040000MessageAttempts extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.alterTable('provider_message', (table) => {
        table.boolean('is_test').notNullable().defaultTo(false);
        table.boolean('synchronous').notNullable().defaultTo(false);
        table.index(['provider_id', 'id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('provider_message_attempt', (table) => {
        table.increments('id').primary();
        table.integer('message_id').unsigned().notNullable().references('provider_message.id').onDelete('cascade');
        table.integer('number').notNullable();
        table.timestamp('attempted_at', { useTz: true }).notNullable();
        table.text('request_headers').notNullable();
        table.integer('status_code').nullable();
        table.text('answer_body').nullable();
        table.boolean('answer_truncated').notNullable().defaultTo(false);
        table.text('error').nullable();
        table.integer('duration_ms').notNullable();
        table.index(['message_id', 'number']);
      }),
    );
  }
}
