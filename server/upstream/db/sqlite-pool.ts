import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SQLInputValue } from 'node:sqlite';
import type { QueryResult } from 'kysely';
import { queryTimedOut, requestCancelled } from './request-scope.ts';
import type { ThreadAnswer, ThreadOptions } from './sqlite-worker.ts';

const WORKER = new URL('./sqlite-worker.ts', import.meta.url);

export interface RunOptions {
  /** 0: no limit (migrations). */
  timeoutMs: number;
  signal?: AbortSignal;
}

interface Pending {
  resolve(result: QueryResult<unknown>): void;
  reject(error: Error): void;
}

/** Rebuilds the error node:sqlite threw on the thread, with the codes isUniqueViolation() reads. */
function sqliteError(error: Extract<ThreadAnswer, { error: unknown }>['error']): Error {
  return Object.assign(new Error(error.message), { code: error.code, errcode: error.errcode, errstr: error.errstr });
}

/** How the main thread talks to one connection: a worker thread or a child process. */
interface Channel {
  send(message: unknown): void;
  onMessage(listener: (answer: ThreadAnswer) => void): void;
  onEnd(listener: (error: Error) => void): void;
  /** Stops it at once (a process) or after the running statement (a thread). */
  kill(): void;
}

function threadChannel(options: ThreadOptions): Channel {
  const worker = new Worker(WORKER, { workerData: options });
  return {
    send: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onEnd: (listener) => {
      worker.on('error', listener);
      worker.on('exit', () => listener(new Error('The database thread ended')));
    },
    kill: () => void worker.terminate(),
  };
}

function processChannel(options: ThreadOptions): Channel {
  const child = fork(fileURLToPath(WORKER), [JSON.stringify(options)], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--disable-warning=ExperimentalWarning'],
  });
  return {
    send: (message) => {
      if (child.connected) child.send(message as never);
    },
    onMessage: (listener) => child.on('message', listener),
    onEnd: (listener) => {
      child.on('error', listener);
      child.on('exit', () => listener(new Error('The database process ended')));
    },
    kill: () => child.kill('SIGKILL'),
  };
}

/** One connection off the main thread (sqlite-worker.ts); its queries run in the order they were sent. */
export class SqliteThread {
  readonly #worker: Channel;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #ended = false;
  #ready = false;
  readonly #exited: Promise<void>;

  /** `onReady`: called once the connection is open (a reader takes queries only then). */
  constructor(options: ThreadOptions, as: 'thread' | 'process' = 'thread', onReady?: () => void) {
    this.#worker = as === 'thread' ? threadChannel(options) : processChannel(options);
    let exited!: () => void;
    this.#exited = new Promise((resolve) => {
      exited = resolve;
    });
    this.#worker.onMessage((answer: ThreadAnswer) => {
      if ('ready' in answer) {
        this.#ready = true;
        onReady?.();
        return;
      }
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if (!pending) return;
      if ('error' in answer) pending.reject(sqliteError(answer.error));
      else if ('rows' in answer) pending.resolve({ rows: answer.rows });
      else pending.resolve({ numAffectedRows: BigInt(answer.changes), insertId: BigInt(answer.lastInsertRowid), rows: [] });
    });
    this.#worker.onEnd((error) => {
      this.#ended = true;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      exited();
    });
  }

  /** Still starting, or running a statement. */
  get busy(): boolean {
    return !this.#ready || this.#pending.size > 0;
  }
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Runs one statement. Past `timeoutMs`, or when `signal` aborts, the promise rejects at once; `onAbandon` then
   * decides what becomes of the thread (a reader is replaced, the writer finishes the statement and goes on).
   */
  run(sql: string, parameters: SQLInputValue[], options: RunOptions, onAbandon?: () => void): Promise<QueryResult<unknown>> {
    if (this.#ended) return Promise.reject(new Error('The database thread ended'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', cancel);
      };
      const abandon = (error: Error) => {
        if (!this.#pending.has(id)) return;
        this.#pending.delete(id);
        settle();
        reject(error);
        onAbandon?.();
      };
      const cancel = () => abandon(requestCancelled());
      this.#pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      if (options.timeoutMs > 0) timer = setTimeout(() => abandon(queryTimedOut(options.timeoutMs)), options.timeoutMs);
      options.signal?.addEventListener('abort', cancel, { once: true });
      this.#worker.send({ id, sql, parameters });
    });
  }

  /** Stops it: a reader's process at once, with the statement it was running and any open read. */
  async terminate(): Promise<void> {
    this.#ended = true;
    this.#worker.kill();
    await this.#exited;
  }

  /** Closes the connection after the statements already sent. */
  async close(): Promise<void> {
    if (this.#ended) return;
    this.#worker.send('close');
    await this.#exited;
  }
}

interface Queued {
  sql: string;
  parameters: SQLInputValue[];
  options: RunOptions;
  resolve(result: QueryResult<unknown>): void;
  reject(error: Error): void;
  started(): void;
}

/**
 * Read-only connections, each in a process of its own: a read goes to an idle one or waits in line (first come,
 * first served). A read over its time limit, or whose client has gone, is stopped by killing its process and
 * starting another (node:sqlite has no interrupt; a worker thread would run the statement to its end).
 */
export class ReaderPool {
  readonly #threads: SqliteThread[];
  readonly #queue: Queued[] = [];
  readonly #file: string;
  #closed = false;

  constructor(file: string, size: number) {
    this.#file = file;
    this.#threads = Array.from({ length: size }, () => this.#start());
  }

  get size(): number {
    return this.#threads.length;
  }

  #start(): SqliteThread {
    return new SqliteThread({ file: this.#file, readOnly: true }, 'process', () => this.#dispatch());
  }

  run(sql: string, parameters: SQLInputValue[], options: RunOptions): Promise<QueryResult<unknown>> {
    return new Promise((resolve, reject) => {
      const cancel = () => {
        const at = this.#queue.indexOf(queued);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(requestCancelled());
      };
      // While it waits in line, a cancelled read just leaves the line.
      const started = () => options.signal?.removeEventListener('abort', cancel);
      const queued: Queued = { sql, parameters, options, resolve, reject, started };
      if (options.signal?.aborted) return cancel();
      options.signal?.addEventListener('abort', cancel, { once: true });
      this.#queue.push(queued);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    if (this.#closed) return;
    for (let i = 0; i < this.#threads.length && this.#queue.length > 0; i++) {
      // A process that died (killed from outside, out of memory) is replaced; its reads have failed already.
      if (this.#threads[i].ended) this.#threads[i] = this.#start();
      const thread = this.#threads[i];
      if (thread.busy) continue;
      const job = this.#queue.shift()!;
      job.started();
      thread
        .run(job.sql, job.parameters, job.options, () => this.#replace(thread))
        .then(job.resolve, job.reject)
        .finally(() => this.#dispatch());
    }
  }

  #replace(thread: SqliteThread): void {
    const at = this.#threads.indexOf(thread);
    if (at >= 0) this.#threads[at] = this.#start();
    void thread.terminate();
    this.#dispatch();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('The database is closed'));
    await Promise.all(this.#threads.map((thread) => thread.close()));
  }
}
