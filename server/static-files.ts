import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { Request } from 'express';
import mime from 'mime-types';

/** One stored form of a file: on disk, and in memory when it is small enough (MEMORY_LIMIT_BYTES). */
export interface FileVariant {
  path: string;
  size: number;
  /** The bytes, read at start-up; absent for files too large to hold (those are streamed from disk). */
  body?: Buffer;
}

/** What the gateway knows about one file of dist/public, read once at start-up. */
export interface PublicFile extends FileVariant {
  type: string;
  etag: string;
  /** Precompressed siblings written by the build (name.br / name.gz). */
  br?: FileVariant;
  gz?: FileVariant;
}

/**
 * Files up to this size are served from memory: the built client is a few hundred kilobytes of scripts,
 * styles and dictionaries (with their .br/.gz copies), and opening a file per request cost more than
 * half of the gateway's throughput for static assets. Larger files (source maps of big chunks, PDFs a
 * deployment might add to static/) are streamed from disk.
 */
export const MEMORY_LIMIT_BYTES = 512 * 1024;

/** The Content-Type of a file by its extension, from mime-db (the table Express itself uses, through mime-types). */
export const contentType = (file: string) => mime.contentType(extname(file).toLowerCase()) || 'application/octet-stream';

/**
 * The build names every script, stylesheet and asset after a hash of its content (esbuild's [hash]: 8 characters
 * of upper-case base32, scripts/build.ts): such names never change content, so they cache forever. Source maps are named
 * after their script, not after their own bytes, so they are revalidated like everything else.
 */
export const isHashedAsset = (urlPath: string) => /^\/assets\/.+-[A-Z0-9]{8}\.[a-z0-9]+$/.test(urlPath) && !urlPath.endsWith('.map');

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** URL path -> file, for every file of the public folder except the index.html template and the .br/.gz copies. */
export function scanPublicDir(publicDir: string): Map<string, PublicFile> {
  const files = new Map<string, PublicFile>();
  if (!existsSync(publicDir)) return files;
  for (const full of walk(publicDir)) {
    if (full.endsWith('.br') || full.endsWith('.gz')) continue;
    const urlPath = `/${relative(publicDir, full).split(sep).join('/')}`;
    if (urlPath === '/index.html') continue;
    const content = readFileSync(full);
    const file: PublicFile = {
      path: full,
      size: content.length,
      body: content.length <= MEMORY_LIMIT_BYTES ? content : undefined,
      type: contentType(full),
      etag: `W/"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`,
    };
    for (const encoding of ['br', 'gz'] as const) {
      const compressed = `${full}.${encoding}`;
      if (!existsSync(compressed)) continue;
      const size = statSync(compressed).size;
      file[encoding] = { path: compressed, size, body: size <= MEMORY_LIMIT_BYTES ? readFileSync(compressed) : undefined };
    }
    files.set(urlPath, file);
  }
  return files;
}

/**
 * The stored variant to send: br first (the smaller), then gzip, each only when the client accepts it by Express's own
 * negotiation (q-values, `*`, `q=0` refusals); null means the plain file.
 */
export function pickEncoding(req: Request, available: { br: boolean; gz: boolean }): 'br' | 'gzip' | null {
  if (available.br && req.acceptsEncodings('br')) return 'br';
  if (available.gz && req.acceptsEncodings('gzip')) return 'gzip';
  return null;
}
