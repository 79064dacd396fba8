import '../quiet-sqlite-warning.ts';
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

/*
 * One node:sqlite connection off the main thread (sqlite-pool.ts starts it): node:sqlite runs every statement
 * synchronously, so on the main thread a slow query would stop every other request. The writer runs as a worker
 * thread, each reader as a child process: node:sqlite has no interrupt and a thread cannot be stopped inside a
 * statement, but a process can. The main thread sends { id, sql, parameters } and gets back rows, or changes and
 * the last row id, or the error's message and codes.
 */
export interface ThreadOptions {
  file: string;
  /** Readers open the file read-only: a statement routed here by mistake fails instead of writing outside the writer's turn. */
  readOnly: boolean;
}
export interface ThreadRequest {
  id: number;
  sql: string;
  parameters: SQLInputValue[];
}
export type ThreadAnswer =
  | { ready: true }
  | { id: number; rows: unknown[] }
  | { id: number; changes: number | bigint; lastInsertRowid: number | bigint }
  | { id: number; error: { message: string; code?: string; errcode?: number; errstr?: string } };

const READER_MMAP_BYTES = 2 ** 31;

// A child process gets its options as JSON in its one argument.
const options = (parentPort ? workerData : JSON.parse(process.argv[2])) as ThreadOptions;
const post = (message: ThreadAnswer) => (parentPort ? parentPort.postMessage(message) : process.send!(message));
const database = new DatabaseSync(options.file, { readOnly: options.readOnly });
if (!options.readOnly) {
  // WAL lets the readers go on while a write commits; NORMAL sync is safe with WAL and much faster.
  if (options.file !== ':memory:') database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
}
database.exec('PRAGMA busy_timeout = 5000');
/**
 * A reader reads the file through a memory map instead of copying each page into its own cache of 2 MB (SQLite's
 * default): a list that touches rows all over a large file (a coach's notes, the matches of a name search) read
 * them with a system call each once the file outgrew that cache, so the same query cost more the larger the
 * instance was (a coach's newest notes at 100,000 patients: 0.95 -> 0.48 ms of CPU, 0.38 at 10,000). The pages are
 * the operating system's file cache, shared by every reader, not memory of each process. 2 GiB is SQLite's own
 * upper limit on Linux; a larger file is mapped up to there and read as before beyond.
 */
if (options.readOnly) database.exec(`PRAGMA mmap_size = ${READER_MMAP_BYTES}`);

// Prepared statements are reused: the same few hundred SQL texts run over and over.
const statements = new Map<string, { statement: StatementSync; reader: boolean }>();
function prepare(sql: string): { statement: StatementSync; reader: boolean } {
  let entry = statements.get(sql);
  if (!entry) {
    const statement = database.prepare(sql);
    entry = { statement, reader: statement.columns().length > 0 };
    if (statements.size >= 500) statements.delete(statements.keys().next().value!);
    statements.set(sql, entry);
  }
  return entry;
}

function answer({ id, sql, parameters }: ThreadRequest): ThreadAnswer {
  try {
    const { statement, reader } = prepare(sql);
    if (reader) return { id, rows: statement.all(...parameters) };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { id, changes, lastInsertRowid };
  } catch (caught) {
    const e = caught as { message?: string; code?: string; errcode?: number; errstr?: string };
    return { id, error: { message: e.message ?? String(caught), code: e.code, errcode: e.errcode, errstr: e.errstr } };
  }
}

const receive = (request: ThreadRequest | 'close') => {
  if (request === 'close') {
    statements.clear();
    database.close();
    if (parentPort) parentPort.close();
    else process.disconnect();
    return;
  }
  post(answer(request));
};
if (parentPort) parentPort.on('message', receive);
else process.on('message', receive);
// The connection is open: the pool sends queries from now on.
post({ ready: true });
