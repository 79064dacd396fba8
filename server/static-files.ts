import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
};

export const contentType = (file: string) => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

/**
 * The build names every script, stylesheet and asset after a hash of its final bytes (8 characters of upper-case
 * base32, scripts/build-names.ts): such names never change content, so they cache forever. Source maps are named
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

/** br first, then gzip, honouring q=0 ("identity only" clients get the plain file). */
export function pickEncoding(acceptEncoding: string | undefined, available: { br: boolean; gz: boolean }): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? (accepted.get('*') ?? 0)) > 0;
  if (available.br && ok('br')) return 'br';
  if (available.gz && ok('gzip')) return 'gzip';
  return null;
}
