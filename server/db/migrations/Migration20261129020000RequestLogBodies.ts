import { SchemaMigration } from './schemaMigration.js';

/**
 * The request log's bodies move to a table of their own, each stored once per provider (decision
 * 034). The bodies already recorded move with their entries, under keys of their own ("row:<id>:
 * request"), which no digest can be: no hash function is common to both engines' SQL.
 */
export class Migration20261129020000RequestLogBodies extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('request_log_body', (table) => {
        table.integer('provider_id').notNullable();
        table.string('body_key', 64).notNullable();
        table.text('body_text').notNullable();
        table.boolean('truncated').notNullable();
        table.timestamp('last_seen_at', { useTz: true }).notNullable();
        table.primary(['provider_id', 'body_key']);
        table.index(['last_seen_at']);
      }),
    );
    this.schema((schema) =>
      schema.alterTable('request_log', (table) => {
        table.string('request_body_key', 64).nullable();
        table.string('response_body_key', 64).nullable();
      }),
    );
    for (const side of ['request', 'response']) {
      this.addSql(
        `insert into request_log_body (provider_id, body_key, body_text, truncated, last_seen_at) ` +
          `select provider_id, 'row:' || id || ':${side}', ${side}_body, ${side}_body_truncated, created_at ` +
          `from request_log where ${side}_body is not null`,
      );
      this.addSql(
        `update request_log set ${side}_body_key = 'row:' || id || ':${side}' where ${side}_body is not null`,
      );
      // Plain SQL: both engines drop a column that no index or constraint names.
      this.addSql(`alter table request_log drop column ${side}_body`);
      this.addSql(`alter table request_log drop column ${side}_body_truncated`);
    }
  }
}
