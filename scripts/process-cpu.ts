import { readdirSync, readFileSync } from 'node:fs';

/*
 * CPU time of processes, read from the scheduler's own account (/proc/<pid>/task/<tid>/schedstat: nanoseconds on a
 * CPU, per thread) rather than /proc/<pid>/stat's user and system time, which Linux counts in ticks of 10 ms by
 * sampling: a measurement of twenty requests of 1-2 ms each was then a few ticks, and 1.0 against 2.5 ms said little.
 * Threads and child processes that have ended are not counted; the servers measured keep theirs (worker threads,
 * SQLite reader processes, pooled database connections).
 */

const listing = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Nanoseconds on a CPU of one thread, or 0 once it has ended. */
function threadNs(pid: number, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of listing(`/proc/${pid}/task`)) {
    try {
      children.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return children;
}

/** CPU time of a process (all its threads) so far, in ms; throws when there is no such process. */
export function processCpuMs(pid: number): number {
  const tasks = readdirSync(`/proc/${pid}/task`);
  return tasks.reduce((sum, tid) => sum + threadNs(pid, tid), 0) / 1e6;
}

/**
 * CPU time of a process and every process under it, in ms: the built-in upstream on SQLite reads in child processes
 * of its own (db/sqlite-pool.ts), whose work the process's own figure leaves out.
 */
export function processTreeCpuMs(pid: number): number {
  let total: number;
  try {
    total = processCpuMs(pid);
  } catch {
    return 0;
  }
  for (const child of childrenOf(pid)) total += processTreeCpuMs(child);
  return total;
}
