/* The table npm run bench prints (scripts/bench.ts) and the budgets it checks. */

export type Row = [metric: string, value: string, note: string];
export const rows: Row[] = [];
export const row = (metric: string, value: string, note = '') => {
  rows.push([metric, value, note]);
  process.stderr.write(`  ${metric}: ${value}${note ? ` (${note})` : ''}\n`);
};
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number) => `${Math.round(value)} ms`;
/** Budgets the measurements broke; the bench exits 1 when there are any (test/e2e/budgets.test.ts enforces the same). */
export const broken: string[] = [];
export const within = (what: string, value: number, limit: number, atLeast = false) => {
  if (atLeast ? value < limit : value > limit) broken.push(`${what}: ${value} (budget ${atLeast ? '>=' : '<='} ${limit})`);
};

export function printTable() {
  const header: Row = ['Measure', 'Value', 'Notes'];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i].length)));
  const line = (r: Row) => `| ${r.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
