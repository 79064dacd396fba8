import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { minify } from 'terser';

/**
 * A second minification of the entry script, the one script of the first screen (budget: 30 KB with the page,
 * the login stylesheet and the German dictionary). esbuild minifies fast and well; terser's multi-pass
 * compression finds what a single pass leaves (about 450 bytes of brotli output here, 2.6 %). Only the entry
 * gets it: the areas load after the login screen, where a few bytes matter less than a quick build.
 *
 * `keep` is a string the build replaces later (the area table placeholder): it must still be in the output
 * exactly once, or the replacement would copy the table or miss it.
 */
export async function minifyAgain(file: string, keep: string): Promise<void> {
  const code = readFileSync(file, 'utf8');
  const map = readFileSync(`${file}.map`, 'utf8');
  const result = await minify(
    { [basename(file)]: code },
    { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false }, sourceMap: { content: map, url: `${basename(file)}.map` } },
  );
  if (!result.code) throw new Error(`terser produced nothing for ${file}`);
  const occurrences = result.code.split(keep).length - 1;
  if (code.includes(keep) && occurrences !== 1) throw new Error(`terser changed the placeholder ${keep} in ${file} (${occurrences} copies)`);
  writeFileSync(file, result.code);
  writeFileSync(`${file}.map`, typeof result.map === 'string' ? result.map : JSON.stringify(result.map));
}
