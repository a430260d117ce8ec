import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry, appendAuditEntry } from '../../platform/audit/index.js';
import { AUDIT_ENTRY_REFUSAL } from '../../server/db/migrations/Migration20261129030000AuditTrail.js';
import { supergraphPath } from '../../graphql/supergraphFile.js';
import { createTestDatabase, isPostgresTestRun, type TestDatabase } from '../support/database.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every TypeScript file of the application (not its tests), relative to the project. */
function applicationFiles(): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      // Declarations (.d.ts) carry types, not code: the graph's generated ones name AuditEntry too.
      else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts')) found.push(relative(ROOT, path));
    }
  };
  for (const top of ['app', 'graphql', 'platform', 'rest-facade', 'scripts', 'server']) walk(join(ROOT, top));
  return found;
}

describe('Audit entries cannot be changed nor deleted', () => {
  let database: TestDatabase;
  const em = () => database.orm.em.fork();
  const rows = async () =>
    (await em().getConnection().execute('select id, action, target_id from audit_entry order by id')) as {
      action: string;
      target_id: string;
    }[];

  beforeAll(async () => {
    database = await createTestDatabase();
    const fork = em();
    await fork.transactional((tx) =>
      appendAuditEntry(tx, {
        actor: { kind: 'api_key', keyId: 1, keyPrefix: 'test_000000000001' },
        at: new Date('2026-11-29T10:00:00Z'),
        action: 'provider.activation_changed',
        target: { type: 'provider', id: 7 },
        before: { isActive: true },
        after: { isActive: false },
        requestId: 'req-1',
      }),
    );
  });
  afterAll(() => database?.destroy());

  it(`refuses a hand-written UPDATE and DELETE in the database itself`, async () => {
    const connection = em().getConnection();
    await expect(connection.execute(`update audit_entry set action = 'offer.approved'`)).rejects.toThrow(
      AUDIT_ENTRY_REFUSAL,
    );
    await expect(connection.execute(`update audit_entry set before_values = null where id > 0`)).rejects.toThrow(
      AUDIT_ENTRY_REFUSAL,
    );
    await expect(connection.execute('delete from audit_entry')).rejects.toThrow(AUDIT_ENTRY_REFUSAL);
    expect(await rows()).toEqual([expect.objectContaining({ action: 'provider.activation_changed', target_id: '7' })]);
  });

  it.runIf(isPostgresTestRun())(
    'refuses TRUNCATE on PostgreSQL, and the same statements from a second session',
    async () => {
      await expect(em().getConnection().execute('truncate audit_entry')).rejects.toThrow(AUDIT_ENTRY_REFUSAL);
      const other = em();
      await expect(
        other.transactional((tx) =>
          tx.getConnection().execute('delete from audit_entry', [], 'run', tx.getTransactionContext()),
        ),
      ).rejects.toThrow(AUDIT_ENTRY_REFUSAL);
      expect(await rows()).toHaveLength(1);
    },
  );

  it('ignores a change made through the ORM: the entity is read-only', async () => {
    const fork = em();
    const [entry] = await fork.find(AuditEntry, {});
    (entry as { action: string }).action = 'offer.approved';
    await fork.flush();
    await expect(fork.nativeDelete(AuditEntry, {})).rejects.toThrow(AUDIT_ENTRY_REFUSAL);
    expect(await rows()).toEqual([expect.objectContaining({ action: 'provider.activation_changed' })]);
  });

  it('has no path in the application that changes or deletes one', () => {
    const files = applicationFiles();
    // Who names the entity or its table: its own module, the ORM's list, the migration and the readers.
    const naming = files.filter((file) => /\bAuditEntry\b|audit_entry/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(naming.sort()).toEqual([
      'graphql/entities.ts',
      'graphql/providers/staff/AuditResolver.ts',
      'graphql/providers/staff/auditTrail.ts',
      'platform/audit/AuditEntry.ts',
      'platform/audit/auditLog.ts',
      'platform/audit/index.ts',
      'server/db/migrations/Migration20261129030000AuditTrail.ts',
    ]);
    for (const file of naming.filter((name) => !name.includes('/migrations/'))) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(
        /nativeUpdate|nativeDelete|\.remove\(|upsert|\bupdate\s+audit_entry|delete\s+from/i,
      );
    }
    // And the graph offers no mutation of entries.
    const mutations = /\ntype Mutation\b[^{]*\{([^}]*)\}/.exec(readFileSync(supergraphPath, 'utf8'))?.[1] ?? '';
    expect(mutations).toContain('rotateMessagingSecret');
    expect(mutations.match(/^\s*\w*audit\w*/gim)).toBeNull();
  });
});
