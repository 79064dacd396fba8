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
/**
 * The gateway's stdout: written asynchronously (a blocking write to a slow stdout would hold every request in
 * flight), in batches of at least 4 KB and at least once a second, so a quiet instance's lines still show within
 * a second. A write per line cost the gateway a thread-pool round trip per request (two context switches on a busy
 * machine); a batch of about twenty lines costs one. What is still buffered when the process ends is written then
 * (pino flushes its destinations synchronously on exit; the fatal paths flush before they exit).
 */
export function batchedStdout(): ReturnType<typeof pino.destination> {
  return pino.destination({ fd: 1, sync: false, minLength: 4096, periodicFlush: 1000 });
}

export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: REDACT_PATHS, censor: '[Redacted]' } }, destination);
}
