import { readdirSync } from 'node:fs';
import * as v from 'valibot';
import type { ApiCall } from '../contract/catalog.ts';

/* The rows of npm run check:upstream (scripts/check-upstream.ts): what one call gave, the schema the client reads
 * its answer with, and the table they are printed as. */

/** 'none yet': a 404 on a singular sub-resource, which the client reads as "not created yet" (its empty state). */
export type Verdict = 'yes' | 'no' | 'not allowed' | 'skipped' | 'absent' | 'none yet';
export interface Row {
  call: string;
  status: string;
  understood: Verdict;
  /** Fields the client needs that are missing or of the wrong type (the call fails in the product). */
  missing: string[];
  /** Fields read with their default (the product works; the screen shows less). */
  defaulted: string[];
  note: string;
}

export async function loadSchemas(): Promise<Map<string, v.GenericSchema>> {
  const dir = new URL('../contract/schemas/', import.meta.url);
  const schemas = new Map<string, v.GenericSchema>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const mod = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (name.endsWith('Schema') && value && typeof value === 'object' && 'kind' in value) schemas.set(name.slice(0, -6), value as v.GenericSchema);
    }
  }
  return schemas;
}

/** The schema the client reads an answer named in the catalog with ("Patient[]" -> array of PatientSchema). */
export function answerSchema(call: ApiCall, schemas: Map<string, v.GenericSchema>): v.GenericSchema | undefined {
  if (!call.answer || call.answer === 'file') return undefined;
  const list = call.answer.endsWith('[]');
  const schema = schemas.get(call.answer.replace(/\[\]$/, ''));
  if (!schema) throw new Error(`contract/catalog.ts names ${call.answer}, which has no schema`);
  return list ? v.array(schema) : schema;
}

export const failed = (rows: Row[]) => rows.filter((row) => row.understood === 'no');

export function formatTable(rows: Row[]): string {
  // The long column comes last, so the others stay aligned.
  const header = ['Call', 'Status', 'Understood', 'Notes', 'Fields that do not fit'];
  const cells = rows.map((row) => [
    row.call,
    row.status,
    row.understood,
    row.note,
    [...row.missing.map((f) => `${f} (needed)`), ...row.defaulted.map((f) => `${f} (default)`)].join(', ') || '–',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((text, i) => text.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
