import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { REDACT_PATHS } from './redaction.ts';

export interface LoggerOptions {
  /** Which process writes the line (`service` in every line). */
  service: 'gateway' | 'upstream';
  level?: string;
  /** Where lines go: stdout unless given (tests pass a stream and assert on the parsed lines). */
  destination?: DestinationStream;
}

/**
 * The one logger of both processes: JSON lines with an ISO time. Health data flows through them, so anything that
 * could identify a person or carry a credential is removed before a line is written (redaction.ts).
 */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: REDACT_PATHS, censor: '[Redacted]' } }, destination);
}
