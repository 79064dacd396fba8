import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';

/**
 * Names every file the browser may cache for a year after its final bytes. esbuild's [hash] is computed
 * before the build's own passes (folding the entry's chunk, filling in the area table), so those names no
 * longer described the bytes under them; here each file is named only once it can no longer change.
 *
 * Files refer to each other by URL (/assets/name): a file is renamed after everything it refers to, with
 * those references rewritten first, so its hash covers the final names of its dependencies. Source-map
 * comments are dropped (the gateway sends a SourceMap header instead) so that no file refers to its own name.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 8 characters of base32 (A-Z, 2-7) over the SHA-256 of the bytes: the [A-Z0-9]{8} the gateway treats as immutable. */
export function contentHash(bytes: Buffer | string): string {
  const digest = createHash('sha256').update(bytes).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 8) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length === 8) break;
  }
  return out;
}

export interface Renameable {
  /** URL path as written in other files (/assets/chunk-ABCD1234.js). */
  url: string;
  /** Name before the hash: main, app, dashboard, chunk. */
  stem: string;
  /** Last edit before hashing, given the final URLs of every other file (the entry fills in its area table here). */
  finish?: (text: string, finalUrl: (oldUrl: string) => string) => string;
}

const SOURCE_MAP_COMMENT = /\n?\/[/*]# sourceMappingURL=[^\n]*\s*$/;

/**
 * Renames `files` (under `publicDir`) to `<stem>-<content hash>.<ext>`, in dependency order, rewriting
 * references. A file with a `finish` step goes last. Returns old URL -> new URL. A reference cycle is a
 * build error: no order could give both files a name derived from their final bytes.
 */
export function nameByContent(publicDir: string, files: Renameable[]): Map<string, string> {
  const text = new Map(files.map((f) => [f.url, readFileSync(join(publicDir, f.url), 'utf8').replace(SOURCE_MAP_COMMENT, '\n')]));
  const deps = new Map(files.map((f) => [f.url, files.filter((g) => g !== f && text.get(f.url)!.includes(g.url)).map((g) => g.url)]));
  const renamed = new Map<string, string>();
  const order: Renameable[] = [];
  const pending = [...files].sort((a, b) => Number(!!a.finish) - Number(!!b.finish));
  while (pending.length > 0) {
    const next = pending.findIndex((f) => deps.get(f.url)!.every((d) => order.some((done) => done.url === d)) && (!f.finish || pending.length === 1));
    if (next === -1) throw new Error(`These files refer to each other, so none can be named after its final bytes: ${pending.map((f) => f.url).join(', ')}`);
    order.push(...pending.splice(next, 1));
  }
  for (const file of order) {
    let body = text.get(file.url)!;
    for (const dep of deps.get(file.url)!) body = body.split(dep).join(renamed.get(dep)!);
    if (file.finish) {
      body = file.finish(body, (old) => {
        const url = renamed.get(old);
        if (!url) throw new Error(`${file.url} needs the final name of ${old}, which is not known yet`);
        return url;
      });
    }
    const url = join(dirname(file.url), `${file.stem}-${contentHash(body)}${extname(file.url)}`);
    writeFileSync(join(publicDir, url), body);
    if (url !== file.url) rmSync(join(publicDir, file.url));
    const map = join(publicDir, `${file.url}.map`);
    if (existsSync(map)) {
      const parsed = JSON.parse(readFileSync(map, 'utf8')) as { file?: string };
      parsed.file = url.split('/').pop();
      writeFileSync(join(publicDir, `${url}.map`), JSON.stringify(parsed));
      if (url !== file.url) rmSync(map);
    }
    renamed.set(file.url, url);
  }
  return renamed;
}
