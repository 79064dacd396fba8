import { describe, expect, test } from 'vitest';
import { auditVerdict, isCopyleft, licenceOf } from '../../../scripts/audit-deps.ts';

describe('licence policy', () => {
  test('rejects GPL, AGPL and LGPL in any version, by SPDX id or by name', () => {
    for (const licence of ['GPL-2.0', 'GPL-3.0-or-later', 'AGPL-3.0-only', 'LGPL-2.1', 'GNU General Public License v3'])
      expect(isCopyleft(licence), licence).toBe(true);
  });

  test('accepts permissive licences and a dual licence that offers a permissive choice', () => {
    for (const licence of ['MIT', 'ISC', 'Apache-2.0', 'BSD-3-Clause', 'BlueOak-1.0.0', '(MIT OR GPL-3.0)', 'MIT OR AGPL-3.0'])
      expect(isCopyleft(licence), licence).toBe(false);
  });

  test('rejects a combination that requires GPL terms', () => {
    expect(isCopyleft('(MIT AND GPL-2.0)')).toBe(true);
  });

  test('reads the licence field in its string, object and array forms', () => {
    expect(licenceOf({ license: 'MIT' })).toBe('MIT');
    expect(licenceOf({ license: { type: 'ISC' } })).toBe('ISC');
    expect(licenceOf({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] })).toBe('MIT OR GPL-2.0');
    expect(licenceOf({})).toBe('');
  });
});

describe('advisory verdict', () => {
  const report = (vulnerabilities: Record<string, number>, entries = {}) =>
    JSON.stringify({ auditReportVersion: 2, vulnerabilities: entries, metadata: { vulnerabilities: vulnerabilities } });

  test('passes when there is nothing high or critical', () => {
    expect(auditVerdict(report({ info: 0, low: 2, moderate: 1, high: 0, critical: 0 })).kind).toBe('ok');
  });

  test('fails on a high advisory and names the package', () => {
    const verdict = auditVerdict(report({ high: 1, critical: 0 }, { qs: { severity: 'high', range: '<6.14.1', via: [{ title: 'Prototype pollution' }] } }));
    expect(verdict.kind).toBe('vulnerable');
    expect(verdict.kind === 'vulnerable' && verdict.findings[0]).toMatch(/HIGH qs <6\.14\.1: Prototype pollution/);
  });

  test('treats an unreachable advisory service as unchecked, never as clean', () => {
    const refused = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
      error: { summary: '', detail: '' },
    });
    expect(auditVerdict(refused).kind).toBe('unreachable');
    expect(auditVerdict('').kind).toBe('unreachable');
    expect(auditVerdict('npm ERR! network ETIMEDOUT').kind).toBe('unreachable');
  });
});
