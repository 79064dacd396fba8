import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { REDACT_PATHS } from './shared/redaction.ts';

/**
 * JSON lines on stdout. Health data flows through this gateway, so anything that could identify a person or
 * carry a credential is removed before a line is written (server/shared/redaction.ts).
 */
export { REDACT_PATHS, redactUrl } from './shared/redaction.ts';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, base: { service: 'gateway' }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: REDACT_PATHS, censor: '[Redacted]' } },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
