import { SchemaMigration } from './schemaMigration.js';

/**
 * The normalisation of streets as it was when this migration was written: a migration
 * must give the same result whatever the application code becomes later.
 */
const abbreviations: Record<string, string> = {
  av: 'avenue',
  bd: 'boulevard',
  bld: 'boulevard',
  ch: 'chemin',
  imp: 'impasse',
  pl: 'place',
  r: 'rue',
  rte: 'route',
  st: 'saint',
  ste: 'sainte',
};

function normalizeStreet(street: string): string {
  return street
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => abbreviations[word] ?? word)
    .join(' ');
}

interface AddressRow {
  id: number;
  street: string | null;
  insee_code: string | null;
  postal_code: string;
}

/** Addresses get a lookup key, so that the same address given twice is one record. */
export class Migration20261122010000AddressLookupKey extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.alterTable('address', (table) => {
        table.string('lookup_key', 300).nullable();
        table.unique(['lookup_key']);
      }),
    );
    const rows = (await this.execute('select id, street, insee_code, postal_code from address')) as AddressRow[];
    const knex = this.getKnex();
    const seen = new Set<string>();
    for (const row of rows) {
      if (!row.street || !row.insee_code) continue;
      const key = `${normalizeStreet(row.street)}|${row.insee_code}|${row.postal_code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.addSql(knex('address').update({ lookup_key: key }).where({ id: row.id }));
    }
  }
}
