import { BaseSqlitePlatform } from '@mikro-orm/knex';
import { SchemaMigration } from './schemaMigration.js';

/** An offer's four accessibility flags. */
const FLAGS = [
  'audio_disability_compliant',
  'mental_disability_compliant',
  'motor_disability_compliant',
  'visual_disability_compliant',
] as const;

/**
 * An offer's accessibility flags may be unknown (NULL), as pass Culture stores them: a product
 * made by EAN takes its venue's flags, which may be unknown. The default (false) stays.
 *
 * PostgreSQL drops the NOT NULL constraints. SQLite cannot drop a constraint, and rebuilding the
 * offer table would cascade to the tables that reference it (foreign keys are on, and cannot be
 * turned off inside the migrations' transaction). Removing NOT NULL does not change how rows are
 * stored, so SQLite's documented procedure for such changes applies, as for the primary keys
 * (Migration20261125000000PrimaryKeysNotNull): the table's definition is rewritten in the schema
 * table and the schema version moves on.
 */
export class Migration20261128000000OfferAccessibilityUnknown extends SchemaMigration {
  async up(): Promise<void> {
    if (!(this.driver.getPlatform() instanceof BaseSqlitePlatform)) {
      for (const flag of FLAGS) this.addSql(`alter table "offer" alter column "${flag}" drop not null`);
      return;
    }
    const [{ sql }] = (await this.execute(`select sql from sqlite_schema where type = 'table' and name = 'offer'`)) as {
      sql: string;
    }[];
    const [{ schema_version: version }] = (await this.execute('pragma schema_version')) as { schema_version: number }[];
    this.addSql('pragma writable_schema = on');
    this.addSql(
      this.getKnex().raw(`update sqlite_schema set sql = ? where type = 'table' and name = 'offer'`, [
        withoutNotNull(sql),
      ]),
    );
    this.addSql(`pragma schema_version = ${Number(version) + 1}`);
    this.addSql('pragma writable_schema = off');
  }
}

/** The offer table's CREATE statement with the flags' NOT NULL removed. */
function withoutNotNull(sql: string): string {
  return FLAGS.reduce((definition, flag) => {
    const notNull = new RegExp(`(\`${flag}\` boolean) not null`, 'i');
    if (!notNull.test(definition)) throw new Error(`offer: the definition of ${flag} is not as the migrations made it`);
    return definition.replace(notNull, '$1');
  }, sql);
}
