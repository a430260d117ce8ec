import { BaseSqlitePlatform } from '@mikro-orm/knex';
import { SchemaMigration } from './schemaMigration.js';

/** What the database answers to a change of an entry: the application has no path that makes one. */
export const AUDIT_ENTRY_REFUSAL = 'audit entries are never changed nor deleted';

/**
 * The audit trail of staff actions (decision 032): one row per action, written in the action's
 * transaction. A trigger refuses any UPDATE or DELETE of a row (and, on PostgreSQL, a TRUNCATE of
 * the table), so that not even a hand-written statement of the application's own database user
 * rewrites history; only someone who may drop the trigger (a schema change) can.
 */
export class Migration20261129030000AuditTrail extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('audit_entry', (table) => {
        table.increments('id').primary();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.string('actor_kind', 20).notNullable();
        table.integer('actor_key_id').nullable();
        table.string('actor_key_prefix', 40).nullable();
        table.string('actor_subject', 255).nullable();
        table.string('actor_email', 320).nullable();
        table.string('action', 60).notNullable();
        table.string('target_type', 40).notNullable();
        table.string('target_id', 64).notNullable();
        table.text('before_values').nullable();
        table.text('after_values').nullable();
        table.string('request_id', 64).nullable();
        table.index(['created_at']);
        table.index(['action', 'id']);
        table.index(['target_type', 'target_id']);
      }),
    );
    if (this.driver.getPlatform() instanceof BaseSqlitePlatform) {
      for (const event of ['update', 'delete']) {
        this.addSql(
          `create trigger audit_entry_no_${event} before ${event} on audit_entry ` +
            `begin select raise(abort, '${AUDIT_ENTRY_REFUSAL}'); end`,
        );
      }
      return;
    }
    this.addSql(
      'create function audit_entry_refuse_change() returns trigger language plpgsql as $$ ' +
        `begin raise exception '${AUDIT_ENTRY_REFUSAL}' using errcode = 'insufficient_privilege'; end $$`,
    );
    this.addSql(
      'create trigger audit_entry_no_change before update or delete on audit_entry ' +
        'for each row execute function audit_entry_refuse_change()',
    );
    this.addSql(
      'create trigger audit_entry_no_truncate before truncate on audit_entry ' +
        'for each statement execute function audit_entry_refuse_change()',
    );
  }
}
