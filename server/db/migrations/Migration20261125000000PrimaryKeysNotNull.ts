import { BaseSqlitePlatform } from '@mikro-orm/knex';
import { SchemaMigration } from './schemaMigration.js';

/** The primary keys that knex's `.primary()` left nullable on SQLite: table and key column. */
const NULLABLE_KEYS: [table: string, column: string][] = [
  ['catalogue_product', 'ean'],
  ['educational_domain', 'id'],
  ['educational_institution', 'id'],
  ['national_program', 'id'],
  ['student_level', 'id'],
];

/**
 * Primary keys become NOT NULL on SQLite, as they always were on PostgreSQL: knex's `.primary()`
 * adds no NOT NULL, and SQLite then lets a text key hold NULL.
 *
 * SQLite cannot add a constraint to a column, and the usual way round (a new table, a copy, the
 * old one dropped) would cascade the drop to the tables that reference these ones: foreign keys
 * are on, and cannot be turned off inside the migrations' transaction. Adding NOT NULL does not
 * change how rows are stored, so SQLite's documented procedure for such changes applies instead:
 * the table's definition is rewritten in the schema table, once no row holds a NULL key, and the
 * schema version moves on so that every connection reads the new definition.
 */
export class Migration20261125000000PrimaryKeysNotNull extends SchemaMigration {
  async up(): Promise<void> {
    if (!(this.driver.getPlatform() instanceof BaseSqlitePlatform)) return;
    const definitions: [table: string, sql: string][] = [];
    for (const [table, column] of NULLABLE_KEYS) {
      const [{ nulls }] = (await this.execute(
        `select count(*) as nulls from \`${table}\` where \`${column}\` is null`,
      )) as {
        nulls: number;
      }[];
      if (Number(nulls) > 0) throw new Error(`${table}: ${nulls} rows have no ${column}; give them one, then migrate`);
      const [{ sql }] = (await this.execute(`select sql from sqlite_schema where type = 'table' and name = ?`, [
        table,
      ])) as { sql: string }[];
      definitions.push([table, withNotNull(table, sql, column)]);
    }
    const [{ schema_version: version }] = (await this.execute('pragma schema_version')) as { schema_version: number }[];
    this.addSql('pragma writable_schema = on');
    for (const [table, sql] of definitions) {
      this.addSql(
        this.getKnex().raw(`update sqlite_schema set sql = ? where type = 'table' and name = ?`, [sql, table]),
      );
    }
    this.addSql(`pragma schema_version = ${Number(version) + 1}`);
    this.addSql('pragma writable_schema = off');
  }
}

/** The table's CREATE statement with NOT NULL after the key column's type. */
function withNotNull(table: string, sql: string, column: string): string {
  const definition = new RegExp(`(\`${column}\` [a-z]+(?:\\(\\d+\\))?)(,)`, 'i');
  if (!definition.test(sql)) throw new Error(`${table}: the definition of ${column} is not as the migrations made it`);
  return sql.replace(definition, '$1 not null$2');
}
