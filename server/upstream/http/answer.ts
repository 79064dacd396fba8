import type { Response } from 'express';
import * as v from 'valibot';

/**
 * Sends a JSON answer after checking it against the client's schema, so a drift between what the
 * upstream stores and what the client expects fails here as a 500 instead of as a broken screen.
 * The error names only the field paths: the values may be health data and must not reach a log.
 */
export function sendAnswer<S extends v.GenericSchema>(res: Response, schema: S, value: v.InferInput<S>, status = 200): void {
  const result = v.safeParse(schema, value);
  if (!result.success) {
    const paths = [...new Set(result.issues.map((issue) => v.getDotPath(issue) ?? '(root)'))].join(', ');
    throw new Error(`Answer does not match its schema at: ${paths}`);
  }
  res.status(status).json(result.output);
}
