import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Runs the whole upstream test suite a second time against PostgreSQL.
 *
 *   DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres npm run test:postgres [-- extra vitest args]
 *
 * The user needs CREATEDB. Each run creates its own database (C collation, so text sorts byte-wise as on
 * SQLite), points the tests at it with DATABASE_URL (every test's ':memory:' storage then gets a fresh schema
 * that is dropped on close), and drops the database afterwards, also when tests fail.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));

async function main(): Promise<number> {
  const base = process.env.DATABASE_URL;
  if (!base || !/^postgres(ql)?:\/\//.test(base)) {
    process.stderr.write('test:postgres needs DATABASE_URL=postgres://user:password@host:5432/db (a user with CREATEDB)\n');
    return 2;
  }
  const name = `upstream_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  process.stdout.write(`test:postgres: database ${name} on ${url.host}\n`);
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          'node_modules/vitest/vitest.mjs',
          'run',
          '--project',
          'server',
          '--project',
          'server-isolated',
          'test/server/upstream',
          // The gateway with the forked upstream on the same database (schema of the URL, not a fresh one).
          'test/server/hardening/postgres-stack.test.ts',
          // Password hashing plus a network database per test: more headroom than the 5 s default on 2 cores.
          '--testTimeout=30000',
          ...process.argv.slice(2),
        ],
        { cwd: ROOT, stdio: 'inherit', env: { ...process.env, DATABASE_URL: url.toString() } },
      );
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

process.exitCode = await main();
