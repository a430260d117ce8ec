import { Migration } from '@mikro-orm/migrations';

type Knex = ReturnType<Migration['getKnex']>;
type SchemaBuilder = ReturnType<Knex['schema']['createTable']>;

/**
 * A migration written with knex's schema builder, which renders the right SQL for
 * SQLite and for PostgreSQL alike: one set of migrations serves both engines.
 */
export abstract class SchemaMigration extends Migration {
  protected schema(build: (schema: Knex['schema']) => SchemaBuilder): void {
    for (const statement of build(this.getKnex().schema).toSQL()) {
      this.addSql(statement.sql);
    }
  }
}
