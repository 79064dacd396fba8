import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses /v2 answers the upstream sent uncompressed (brotli or gzip, as Accept-Encoding allows; brotli
 * first) while they stream through the proxy. The maintained `compression` middleware does the work: it
 * wraps res.write/end, which the proxy pipes the upstream answer into, and decides when the head goes out,
 * so nothing is buffered. It skips answers under the threshold (by Content-Length; chunked answers of
 * unknown length are compressed), types that do not compress (compressible's list: JSON and text yes,
 * PDF and images no), HEAD, `Cache-Control: no-transform`, and answers the upstream already encoded
 * (Content-Encoding present: never twice). It adds `Vary: Accept-Encoding` to every answer it considered.
 * Brotli runs at quality 4 (the library's default for dynamic answers): fast, and about as small as gzip -9.
 * Its window is 256 KB instead of 4 MB: with the large window the encoder holds back its output until
 * megabytes have gone in, so a long answer (an export) would reach the browser only at its end; with 256 KB
 * it streams, and answers of a few hundred kilobytes compress just as well.
 *
 * The proxy calls it once the upstream's answer head is there (proxy.ts), not for every request: an answer that
 * announces fewer bytes than the threshold (most calls: a record, a count, a settings object) and is passed on
 * unchanged goes out as it is without the middleware wrapping the response first (its wrapping cost a small GET
 * about a fifteenth of the gateway's work). Such an answer carries no Vary: whatever the browser accepts, it is
 * sent as it is. Pages and assets are not its business: the build precompresses them and
 * server/middleware/static.ts picks the stored variant.
 */
export function compressApiAnswers(): (req: IncomingMessage, res: ServerResponse, answer: IncomingHttpHeaders, rewritten: boolean) => void {
  const compress = compression({ threshold: COMPRESS_THRESHOLD_BYTES, brotli: { params: { [constants.BROTLI_PARAM_LGWIN]: 18 } } });
  return (req, res, answer, rewritten) => {
    const length = answer['content-length'];
    if (!rewritten && length !== undefined && Number(length) < COMPRESS_THRESHOLD_BYTES) return;
    // Synchronous: the middleware wraps res and calls next at once, before anything is written.
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {});
  };
}
