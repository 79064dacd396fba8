import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * npm run audit:deps - the production dependency tree (exactly what `npm prune --omit=dev` leaves in the Docker
 * image) must have
 *   1. no copyleft licence (AGPL, GPL, LGPL, SSPL, EUPL, OSL) and no package without a licence we can read, and
 *   2. no known advisory of severity high or critical (`npm audit --omit=dev --audit-level=high`).
 * It prints every shipped package with its licence, then a summary per licence.
 *
 * When the advisory service cannot be asked (offline, proxy, registry mirror without the audit API) the
 * script FAILS (exit 3) with a line saying so: "could not check" must never look like "nothing found".
 * AUDIT_DEPS_UNREACHABLE=warn turns only that case into a loud warning (exit 0), for air-gapped builds
 * that audit elsewhere; licences are still checked.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

export interface ShippedPackage {
  name: string;
  version: string;
  licence: string;
  path: string;
}

// A licence expression is acceptable when at least one OR-alternative is free of these.
const COPYLEFT = /\b(A?GPL|LGPL|SSPL|EUPL|OSL|CC-BY-SA|CPAL|RPL)\b|GNU (Affero |Lesser )?General Public/i;

/** True when the SPDX expression forces copyleft terms on us (every OR-alternative is copyleft). */
export function isCopyleft(expression: string): boolean {
  const alternatives = expression.replace(/[()]/g, ' ').split(/\s+OR\s+/i);
  return alternatives.every((alternative) => COPYLEFT.test(alternative));
}

/** The licence field of a package.json in its three historical shapes; '' when there is none. */
export function licenceOf(manifest: { license?: unknown; licenses?: unknown }): string {
  const field = manifest.license ?? manifest.licenses;
  if (typeof field === 'string') return field.trim();
  if (Array.isArray(field))
    return field
      .map((entry) => licenceOf({ license: entry?.type ?? entry }))
      .filter(Boolean)
      .join(' OR ');
  if (field && typeof field === 'object' && typeof (field as { type?: unknown }).type === 'string') return (field as { type: string }).type;
  return '';
}

export type AuditVerdict =
  | { kind: 'ok'; counts: Record<string, number> }
  | { kind: 'vulnerable'; counts: Record<string, number>; findings: string[] }
  | { kind: 'unreachable'; reason: string };

/** Reads `npm audit --json` output (npm 7+ format). */
export function auditVerdict(stdout: string): AuditVerdict {
  let report: {
    error?: { summary?: string; detail?: string };
    message?: string;
    statusCode?: number;
    metadata?: { vulnerabilities?: Record<string, number> };
    vulnerabilities?: Record<string, { severity: string; via: unknown[]; range?: string }>;
  };
  try {
    report = JSON.parse(stdout);
  } catch {
    return { kind: 'unreachable', reason: 'npm audit printed no JSON report' };
  }
  if (report.error || report.message || !report.metadata?.vulnerabilities) {
    const reason = [report.statusCode, report.message, report.error?.summary, report.error?.detail].filter(Boolean).join(' ');
    return { kind: 'unreachable', reason: reason || 'npm audit returned no vulnerability counts' };
  }
  const counts = report.metadata.vulnerabilities;
  const findings = Object.entries(report.vulnerabilities ?? {})
    .filter(([, entry]) => entry.severity === 'high' || entry.severity === 'critical')
    .map(([name, entry]) => {
      const titles = entry.via.map((via) => (typeof via === 'object' && via && 'title' in via ? String(via.title) : `via ${String(via)}`));
      return `${entry.severity.toUpperCase()} ${name} ${entry.range ?? ''}: ${titles.join('; ')}`;
    });
  return (counts.high ?? 0) + (counts.critical ?? 0) > 0 ? { kind: 'vulnerable', counts, findings } : { kind: 'ok', counts };
}

/** Every installed package of the production tree (what the image's node_modules holds). */
async function shippedPackages(): Promise<ShippedPackage[]> {
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 });
  const paths = [
    ...new Set(
      stdout
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && line !== ROOT.replace(/\/$/, '')),
    ),
  ];
  return paths
    .map((path) => {
      const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
      return { name: String(manifest.name), version: String(manifest.version), licence: licenceOf(manifest), path: relative(ROOT, path) };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

async function npmAudit(): Promise<string> {
  try {
    const { stdout } = await run('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024, timeout: 120_000 });
    return stdout;
  } catch (error) {
    // npm audit exits 1 when it finds something (or fails); the JSON report is on stdout either way.
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

async function main(): Promise<number> {
  let failed = 0;
  const packages = await shippedPackages();
  process.stdout.write(`Production dependencies shipped in the Docker image (${packages.length} packages):\n`);
  for (const p of packages) process.stdout.write(`  ${`${p.name}@${p.version}`.padEnd(48)} ${p.licence || '(no licence field)'}\n`);
  const byLicence = new Map<string, number>();
  for (const p of packages) byLicence.set(p.licence || '(none)', (byLicence.get(p.licence || '(none)') ?? 0) + 1);
  process.stdout.write(
    `Licences: ${[...byLicence]
      .sort((a, b) => b[1] - a[1])
      .map(([l, n]) => `${l} ${n}`)
      .join(', ')}\n`,
  );
  process.stdout.write('(Not listed: the node:24-bookworm-slim base image - Node.js itself, MIT, plus Debian packages under their own licences.)\n');

  const copyleft = packages.filter((p) => p.licence && isCopyleft(p.licence));
  const unknown = packages.filter((p) => !p.licence || /^(UNLICENSED|SEE LICENSE IN)/i.test(p.licence));
  for (const p of copyleft) process.stderr.write(`FAIL copyleft licence in production: ${p.name}@${p.version} (${p.licence}) at ${p.path}\n`);
  for (const p of unknown) process.stderr.write(`FAIL licence not declared or not open: ${p.name}@${p.version} (${p.licence || 'none'}) at ${p.path}\n`);
  if (copyleft.length + unknown.length > 0) failed = 1;
  else process.stdout.write('Licences: ok (no copyleft, none missing)\n');

  const verdict = auditVerdict(await npmAudit());
  if (verdict.kind === 'unreachable') {
    const line = `the npm advisory service could not be asked (${verdict.reason}): known vulnerabilities were NOT checked`;
    if (process.env.AUDIT_DEPS_UNREACHABLE === 'warn') {
      process.stderr.write(`WARNING ${line} (AUDIT_DEPS_UNREACHABLE=warn)\n`);
    } else {
      process.stderr.write(`FAIL ${line}. Retry with network access, or set AUDIT_DEPS_UNREACHABLE=warn to accept this knowingly.\n`);
      failed ||= 3;
    }
  } else if (verdict.kind === 'vulnerable') {
    for (const finding of verdict.findings) process.stderr.write(`FAIL ${finding}\n`);
    failed = 1;
  } else {
    process.stdout.write(
      `Advisories: ok (${Object.entries(verdict.counts)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}; high and critical fail)\n`,
    );
  }
  return failed;
}

if (import.meta.main) process.exitCode = await main();
