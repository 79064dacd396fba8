import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { PatientSchema } from '../../contract/schemas/patients.ts';
import { CostRateSchema } from '../../contract/schemas/cost-rates.ts';
import { SurveySchema } from '../../contract/schemas/surveys.ts';
import { proposeMapping } from '../../scripts/upstream-proposal.ts';
import type { FakeUpstream } from '../helpers/gateway-fixtures.ts';
import { mappingFile, RENAMED_MAPPING, startRenamedUpstream } from '../helpers/renamed-upstream.ts';
import { ROOT, startUpstream, type RunningUpstream } from '../helpers/e2e-server.ts';
import { LB3_MAPPING, snapshot, startLb3Upstream } from '../helpers/lb3-upstream/app.ts';
import { LB3_ACCOUNTS, LB3_PASSWORD } from '../helpers/lb3-upstream/seed.ts';

/** Runs `npm run check:upstream -- <url>` as an operator would (the script itself, with the pinned Node). */
function runCheck(url: string | undefined, env: Record<string, string | undefined>, args: string[] = []) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'scripts', 'check-upstream.ts'), ...args, ...(url ? [url] : [])],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}
const row = (out: string, call: string) => out.split('\n').find((line) => line.startsWith(`${call} `)) ?? '';

describe('check:upstream against the built-in upstream', () => {
  let upstream: RunningUpstream;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'check-upstream-'));
    upstream = await startUpstream(dataDir);
  }, 60_000);
  afterAll(async () => {
    await upstream?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('understands every read-only call of docs/product.md#calls with an administrator and exits 0', async () => {
    const { code, out } = await runCheck(upstream.url, { CHECK_EMAIL: 'admin@example.org', CHECK_PASSWORD: 'Demo-Passwort-1' });
    expect(code, out).toBe(0);
    for (const call of [
      'GET /auth/me',
      'GET /patients',
      'GET /patients/{id}',
      'GET /news',
      'GET /system/settings',
      'GET /statistics/phone-coachings',
      'GET /patients/{id}/sync-db/day-evaluation',
    ]) {
      expect(row(out, call), call).toMatch(/^\S.* 200 +yes /);
    }
    expect(out).not.toMatch(/ no /);
    expect(out).toMatch(/OK: every checked call the product needs works/);
  }, 90_000);
});

describe('check:upstream against the LoopBack 3 test upstream', () => {
  test("reads LoopBack's answers, and without the mapping names the fields this API names otherwise (exit 1)", async () => {
    const lb3 = await startLb3Upstream();
    try {
      const { code, out } = await runCheck(lb3.url, { CHECK_EMAIL: LB3_ACCOUNTS.admin, CHECK_PASSWORD: LB3_PASSWORD });
      expect(code, out).toBe(1);
      expect(row(out, 'GET /auth/me')).toMatch(/200 +yes /);
      expect(row(out, 'GET /patients')).toMatch(/200 +yes +no X-Total-Count.*\[\]\.birthDate \(default\)/);
      expect(row(out, 'GET /cost-rates')).toMatch(/200 +no .*\[\]\.name \(needed\)/);
      // A hasOne without a row: "none yet", not a failure.
      expect(row(out, 'GET /patients/{id}/evaluation-form')).toMatch(/404 +none yet /);
      // The audit log is not in docs/product.md#calls: an API without it is fine, the patient's history tab is hidden.
      expect(row(out, 'GET /audit-log')).toMatch(/404 +absent /);
      expect(out).toMatch(/signs in and out \(POST \/auth\/login, POST \/auth\/logout\) and otherwise only reads/);
    } finally {
      await lb3.stop();
    }
  }, 60_000);

  test('with its mapping.json (UPSTREAM_MAPPING) understands every call the product needs and exits 0', async () => {
    const lb3 = await startLb3Upstream();
    try {
      const { code, out } = await runCheck(lb3.url, { CHECK_EMAIL: LB3_ACCOUNTS.admin, CHECK_PASSWORD: LB3_PASSWORD, UPSTREAM_MAPPING: LB3_MAPPING });
      expect(code, out).toBe(0);
      expect(out).toContain(`through the mapping ${LB3_MAPPING}`);
      for (const call of ['GET /patients', 'GET /cost-rates', 'GET /surveys', 'GET /patientTokens/{id}', 'GET /patients/{id}/sync-db/day-evaluation/{id}']) {
        expect(row(out, call), call).toMatch(/^\S.* 200 +yes /);
      }
      expect(row(out, 'GET /patients/{id}')).not.toMatch(/birthDate|aftercareStart|primaryCoachId|gender/);
      expect(out).not.toContain('Proposed mapping');
      expect(out).toMatch(/OK: every checked call the product needs works/);
    } finally {
      await lb3.stop();
    }
  }, 60_000);

  test('never writes: apart from login and logout it sends only GETs, and the data is unchanged', async () => {
    const lb3 = await startLb3Upstream();
    try {
      const before = await snapshot(lb3.lb);
      await runCheck(lb3.url, { CHECK_EMAIL: LB3_ACCOUNTS.admin, CHECK_PASSWORD: LB3_PASSWORD });
      const writes = lb3.lb.requests.filter((r) => !r.startsWith('GET '));
      expect(writes).toEqual(['POST /auth/login', 'POST /auth/logout']);
      expect(lb3.lb.requests.length).toBeGreaterThan(40);
      expect(await snapshot(lb3.lb)).toBe(before);
      expect(await lb3.lb.models.CoachToken.count()).toBe(0);
    } finally {
      await lb3.stop();
    }
  }, 60_000);

  test('exits 1 and names the field when an answer lacks what a screen needs', async () => {
    const lb3 = await startLb3Upstream({
      rewrite: (path, body) => (path === '/news' ? (body as Record<string, unknown>[]).map(({ read: _read, ...item }) => item) : body),
    });
    try {
      const { code, out } = await runCheck(lb3.url, { CHECK_EMAIL: LB3_ACCOUNTS.admin, CHECK_PASSWORD: LB3_PASSWORD });
      expect(code).toBe(1);
      expect(row(out, 'GET /news')).toMatch(/200 +no .*\[\]\.read \(needed\)/);
    } finally {
      await lb3.stop();
    }
  }, 60_000);

  test('exits 1 when the sign-in fails and checks nothing else', async () => {
    const lb3 = await startLb3Upstream();
    try {
      const { code, out } = await runCheck(lb3.url, { CHECK_EMAIL: LB3_ACCOUNTS.admin, CHECK_PASSWORD: 'falsch' });
      expect(code).toBe(1);
      expect(row(out, 'POST /auth/login')).toMatch(/401 +no +wrong CHECK_EMAIL or CHECK_PASSWORD/);
      expect(lb3.lb.requests).toEqual(['POST /auth/login']);
    } finally {
      await lb3.stop();
    }
  }, 60_000);

  test('says in one line what is missing when the account or the URL is not given, and exits 2', async () => {
    const noAccount = await runCheck('http://127.0.0.1:9', {});
    expect(noAccount.code).toBe(2);
    expect(noAccount.err.trim()).toBe('check:upstream needs a test account: set CHECK_EMAIL and CHECK_PASSWORD (an administrator account checks every call).');
    const noUrl = await runCheck(undefined, { CHECK_EMAIL: 'a@b.c', CHECK_PASSWORD: 'x' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.err).toMatch(/^Usage: /);
  }, 30_000);
});

describe('check:upstream and the field mapping', () => {
  let renamed: FakeUpstream;
  const account = { CHECK_EMAIL: 'coach@example.org', CHECK_PASSWORD: 'x' };
  beforeAll(async () => {
    renamed = await startRenamedUpstream();
  });
  afterAll(async () => {
    await renamed.close();
  });
  const proposalIn = (out: string) => JSON.parse(out.slice(out.indexOf('{', out.indexOf('Proposed mapping')), out.lastIndexOf('}') + 1)) as unknown;

  test('proposes a complete mapping for renamed fields, nested and flat records included, and writes it with --write-mapping', async () => {
    const target = mappingFile({});
    try {
      const { out } = await runCheck(renamed.url, account, ['--write-mapping', target.file]);
      expect(row(out, 'GET /patientTokens')).toMatch(/200 +no .*\[\]\.code \(needed\)/);
      const expected = {
        entities: {
          ...RENAMED_MAPPING.entities,
          // Only the values the answers showed.
          Patient: { fields: { ...RENAMED_MAPPING.entities.Patient.fields, gender: { name: 'sex', values: { female: 'f' } } } },
        },
      };
      expect(proposalIn(out)).toEqual(expected);
      expect(JSON.parse(readFileSync(target.file, 'utf8'))).toEqual(expected);
    } finally {
      target.cleanup();
    }
  }, 60_000);

  test('reads the answers through a given mapping (--mapping or UPSTREAM_MAPPING) and proposes nothing more', async () => {
    const given = mappingFile();
    try {
      for (const [env, args] of [
        [account, ['--mapping', given.file]],
        [{ ...account, UPSTREAM_MAPPING: given.file }, []],
      ] as const) {
        const { out } = await runCheck(renamed.url, env, [...args]);
        expect(out).toContain(`through the mapping ${given.file}`);
        expect(row(out, 'GET /patientTokens')).toMatch(/200 +yes /);
        expect(row(out, 'GET /patients/{id}/sync-db/day-evaluation')).toMatch(/200 +yes /);
        expect(row(out, 'GET /patients/{id}')).not.toMatch(/birthDate|gender/);
        expect(out).not.toContain('Proposed mapping');
      }
    } finally {
      given.cleanup();
    }
  }, 60_000);

  test("sends query values in the API's names, as the gateway would", async () => {
    const given = mappingFile({ entities: { ...RENAMED_MAPPING.entities, StatisticsQuery: { fields: { from: 'start' } } } });
    try {
      renamed.requests.length = 0;
      await runCheck(renamed.url, account, ['--mapping', given.file]);
      const statistics = renamed.requests.find((r) => r.url.startsWith('/v2/statistics/patient-statistics?'));
      expect(statistics?.url).toMatch(/[?&]start=/);
      expect(statistics?.url).not.toMatch(/[?&]from=/);
    } finally {
      given.cleanup();
    }
  }, 60_000);

  test("refuses a wrong mapping with the gateway's own line and exit 2, before any call", async () => {
    const wrong = mappingFile({ entities: { Patient: { fields: { birthdat: 'birthday' } } } });
    try {
      const { code, out, err } = await runCheck(renamed.url, account, ['--mapping', wrong.file]);
      expect(code).toBe(2);
      expect(err.trim()).toBe(`UPSTREAM_MAPPING ${wrong.file}: entities.Patient.fields.birthdat is not a field of Patient (did you mean birthDate?)`);
      expect(out).toBe('');
    } finally {
      wrong.cleanup();
    }
  }, 30_000);
});

describe('the proposed mapping', () => {
  const patient = { id: 1, firstName: 'A', family_name: 'B', date_of_birth: '1970-01-01', primary_coach_id: 3, sex: 'M' };

  test('finds renames by spelling and by name inside name, of the same JSON type, and abbreviated picklist values', () => {
    const proposal = proposeMapping([{ shape: 'Patient', schema: PatientSchema, objects: [patient] }]);
    expect(proposal.entities.Patient.fields).toEqual({
      lastName: 'family_name',
      birthDate: 'date_of_birth',
      gender: { name: 'sex', values: { male: 'M' } },
      primaryCoachId: 'primary_coach_id',
    });
  });

  test('finds renames by the same last words, and repeats a rename of the first words for a sibling field', () => {
    const other = { id: 1, firstName: 'A', lastName: 'B', programStart: '2026-01-01', programEnd: '2026-06-30', leadCoachId: 4 };
    const proposal = proposeMapping([{ shape: 'Patient', schema: PatientSchema, objects: [other] }]);
    expect(proposal.entities.Patient.fields).toEqual({ aftercareStart: 'programStart', aftercareEnd: 'programEnd', primaryCoachId: 'leadCoachId' });
  });

  test('pairs the last missing field of a type with the last unclaimed API field of that type, and names picklist values it cannot pair', () => {
    const survey = { id: 7, headline: 'Schlaf', description: 'x', questions: [], active: true };
    expect(proposeMapping([{ shape: 'Survey', schema: SurveySchema, objects: [survey] }]).entities.Survey.fields).toEqual({ title: 'headline' });
    const rate = { id: 1, designation: 'Gruppe', amountCents: 100, unit: 'session', note: 7 };
    expect(proposeMapping([{ shape: 'CostRate', schema: CostRateSchema, objects: [rate] }]).entities.CostRate.fields).toEqual({ name: 'designation' });
    // Two strings left on either side: no guess.
    const two = { id: 1, designation: 'Gruppe', remark: 'y', amountCents: 100, unit: 'session' };
    expect(proposeMapping([{ shape: 'CostRate', schema: CostRateSchema, objects: [two] }]).entities.CostRate).toBeUndefined();
    const proposal = proposeMapping([
      {
        shape: 'Patient',
        schema: PatientSchema,
        objects: [
          { ...patient, sex: 'W' },
          { ...patient, sex: 'X' },
        ],
      },
    ]);
    expect(proposal.notes).toEqual([expect.stringMatching(/^Patient\.gender: the API sends W, X, the contract knows female, male, diverse, unknown/)]);
  });

  test('proposes scale 100 for an amount in euros beside cents, and nothing for a field of another type', () => {
    const proposal = proposeMapping([{ shape: 'CostRate', schema: CostRateSchema, objects: [{ id: 'c', title: 'Gruppe', amountEuros: 12.5, unit: 7 }] }]);
    expect(proposal.entities.CostRate.fields).toEqual({ name: 'title', amountCents: { name: 'amountEuros', scale: 100 } });
  });
});
