import { describe, expect, it } from 'vitest';
import { locateTool, pgConnection } from '../../server/backup/pgTools.js';

describe('how the backup commands call the PostgreSQL client', () => {
  it('passes the password in the environment, never on the command line', () => {
    const connection = pgConnection('postgres://platform:s%40cret@db.internal:5432/platform?sslmode=require');
    expect(connection.dbname).toBe('postgres://platform@db.internal:5432/platform?sslmode=require');
    expect(connection.env.PGPASSWORD).toBe('s@cret');
  });

  it('sets no password when the URL has none', () => {
    const connection = pgConnection('postgres://postgres@127.0.0.1:5432/test');
    expect(connection.dbname).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(connection.env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });

  it('refuses a client older than the server, naming the package to install', async () => {
    await expect(locateTool('pg_dump', 99)).rejects.toThrow(/postgresql-client-99$/);
  });
});
