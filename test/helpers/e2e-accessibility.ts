import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, evaluated into each screen (see checkAccessibility). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The violations that fail a screen: serious or critical ones. axe is evaluated through the DevTools
 * protocol (page.evaluate with the source text), which the page's CSP (script-src 'self') does not
 * govern, so the journey runs under the real CSP and needs no bypassCSP context.
 */
export async function checkAccessibility(page: Page): Promise<string[]> {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe;
    // Rules whose worst impact is minor or moderate can never fail a screen: they are not run (a fifth of axe's time).
    // Their impact is read from axe itself, so a rule a later axe rates serious is run again.
    const rules = (window as unknown as { axe: { _audit?: { rules?: { id: string; impact?: string }[] } } }).axe._audit?.rules ?? [];
    const harmless = rules.filter((rule) => rule.impact === 'minor' || rule.impact === 'moderate');
    const results = await axe.run(document, { resultTypes: ['violations'], rules: Object.fromEntries(harmless.map((rule) => [rule.id, { enabled: false }])) });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => {
        const where = v.nodes.map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` - ${n.any[0].message}` : ''}`);
        return `${v.impact}: ${v.id} (${v.help}) at ${where.join('; ')}`;
      });
  });
}
interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; any: { message: string }[] }[] }[];
}
