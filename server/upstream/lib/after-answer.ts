import type { Response } from 'express';
import type { Upstream } from '../context.ts';

const running = new WeakMap<Upstream, Set<Promise<void>>>();

/**
 * Runs `work` once the answer has gone out, so that how long the work takes (or whether there is any) cannot
 * be read from the answer's timing. A failure is logged under `label` with the error's message only: the work
 * may hold an address or a link, which stay out of the log.
 */
export function afterAnswer(ctx: Upstream, res: Response, label: string, work: () => Promise<void>): void {
  res.once('close', () => {
    const tasks = running.get(ctx) ?? new Set();
    running.set(ctx, tasks);
    const task = work()
      .catch((error: unknown) => ctx.logger.error({ reason: error instanceof Error ? error.name : 'unknown' }, `${label} failed after the answer`))
      .finally(() => tasks.delete(task));
    tasks.add(task);
  });
}

/** Resolves when every piece of work started after an answer has ended (tests, shutdown). */
export async function workAfterAnswers(ctx: Upstream): Promise<void> {
  while (running.get(ctx)?.size) await Promise.all(running.get(ctx)!);
}
