import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** Fields after the command name of /proc/<pid>/stat (the name may hold spaces and parentheses). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      children.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return children;
}

/** CPU time (user + system) a process has used so far, in ms. */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * CPU time (user + system) of a process and every process under it, in ms: the built-in upstream on SQLite reads
 * in child processes of its own (db/sqlite-pool.ts), whose work the process's own figure leaves out. Children that
 * have ended count through their parent's cutime/cstime.
 */
export function processTreeCpuMs(pid: number): number {
  let total = 0;
  try {
    const fields = statFields(pid);
    total = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return 0;
  }
  for (const child of childrenOf(pid)) total += processTreeCpuMs(child);
  return total;
}
