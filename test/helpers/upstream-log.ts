import { Writable } from 'node:stream';
import { createLogger } from '../../server/shared/logger.ts';

/** A pino logger whose lines land in `lines` (parsed), so tests can assert on what was logged. */
export function capturedLogger() {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ service: 'upstream', level: 'info', destination });
  return { logger, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
