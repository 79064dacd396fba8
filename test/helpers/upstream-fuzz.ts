import fc from 'fast-check';
import { syncSamples } from './upstream-rows.ts';
import { SYNC_COLLECTIONS } from '../../contract/schemas/sync-db.ts';
import type { FieldKind, FieldMap } from '../../server/upstream/http/filter.ts';
import { standardResources } from '../../server/upstream/routes.ts';
import { patientsResource } from '../../server/upstream/features/patients/resource.ts';
import { coachesResource } from '../../server/upstream/features/coaches/resource.ts';
import { FILTER_FIELDS as SYNC_FIELDS } from '../../server/upstream/features/sync-data/rules.ts';
import { AUDIT_FIELDS } from '../../server/upstream/features/audit/repository.ts';

/** The filterable fields of every list route of the catalogue, by catalogue path. */
export const LIST_FIELDS: Record<string, FieldMap> = {
  ...Object.fromEntries(standardResources.map((r) => [r.path, r.fields])),
  '/coaches': coachesResource.fields,
  '/coaches/{id}/patients': patientsResource.fields,
  '/patients/{patientId}/sync-db/{collection}': SYNC_FIELDS,
  '/audit-log': AUDIT_FIELDS,
};

/*
 * Generators for the property test of every list and write route (test/server/upstream/fuzz.test.ts): filters
 * and bodies made of the things that used to break the upstream (inherited member names, numbers a database
 * column cannot hold, NUL and lone surrogates, backslashes in patterns, timestamps in every notation) mixed
 * with valid requests, so the generated input reaches past validation into the queries.
 */

/** Ids of the test fixture (test/helpers/upstream-app.ts) plus odd ones, already percent-encoded for a path. */
export const pathSegment = fc.oneof(
  fc.constantFrom('p1', 'p2', 'p3', 'c1', 'c2', 'x1', 'coach', 'health', 'admin', 'dev-1', 'dx-m54', 'rate-1', 'repl-1', 'survey-1', 'news-1', 'nope'),
  fc
    .string({ unit: 'grapheme', maxLength: 12 })
    .filter((s) => s.length > 0)
    .map(encodeURIComponent),
  fc.constantFrom('%00', 'p1%00', '%FF', '%ED%A0%80', '__proto__', 'constructor', '%2e%2e', '1e20', '-1'),
);

export const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\\', 'a\\%', '%', '_', "'; drop table patients; --", '😀', 'ß'.repeat(3), ''),
);
export const oddNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(1e20, -1e20, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_SAFE_INTEGER, 1.5, -0, 0, 1, 5, 1000),
);
export const timestamp = fc.constantFrom(
  '2026-11-20T10:00:00+01',
  '2026-11-20 10:00:00+0100',
  '2026-11-20T10:00:00.123456789-02:30',
  '2026-11-20T10:00:00Z',
  '2026-02-30T10:00:00Z',
  '0000-01-01T00:30:00+01:00',
  '9999-12-31T23:59:59.999Z',
  '2026-11-20',
  '2026-13-01T00:00:00Z',
);
export const oddScalar = fc.oneof(oddString, oddNumber, timestamp, fc.boolean(), fc.constant(null));
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  oddScalar,
  fc.array(oddScalar, { maxLength: 3 }),
  fc.dictionary(oddString, oddScalar, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Values a field of this kind holds, mostly; now and then anything odd. */
function arbitraryOf(kind: FieldKind): fc.Arbitrary<unknown> {
  const fitting =
    kind === 'number'
      ? oddNumber
      : kind === 'boolean'
        ? fc.boolean()
        : kind === 'date'
          ? fc.oneof(timestamp, fc.constantFrom('2026-11-22', '2026'))
          : fc.oneof(fc.constantFrom('p1', 'coach', 'Müller', 'AB-2345', 'x'), oddString);
  return fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 1, arbitrary: oddScalar }, { weight: 1, arbitrary: fc.constant(null) });
}

const INHERITED = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'passwordHash'];
const OPERATORS = ['like', 'nlike', 'inq', 'nin', 'gt', 'gte', 'lt', 'lte', 'neq', 'between'];

/**
 * The `filter` query value as sent, for a list with these fields: mostly a filter of the list's own fields with
 * values of (mostly) their kind, so requests get past the first check into the query; now and then inherited
 * member names, unknown operators, limits a database cannot take, any JSON, or text that is no JSON.
 */
export function filterFor(fields: FieldMap): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  const name = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...INHERITED) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
  const condition = (field: string) => {
    const kind: FieldKind = Object.hasOwn(fields, field) ? fields[field] : 'string';
    const value = arbitraryOf(kind);
    return fc.oneof(
      value,
      fc
        .tuple(
          fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...OPERATORS) }, { weight: 1, arbitrary: fc.constantFrom('regexp', '__proto__') }),
          value,
          fc.array(value, { maxLength: 3 }),
        )
        .map(([op, one, many]) => ({ [op]: op === 'inq' || op === 'nin' ? many : op === 'between' ? [one, one] : one })),
    );
  };
  const leaf = name.chain((field) => condition(field).map((c) => ({ [field]: c })));
  const { where } = fc.letrec<{ where: Record<string, unknown> }>((tie) => ({
    where: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ and: fc.array(tie('where'), { maxLength: 2 }) }),
      fc.record({ or: fc.array(tie('where'), { maxLength: 2 }) }),
    ),
  }));
  const order = fc.oneof(
    name.chain((f) => fc.constantFrom(f, `${f} DESC`, `${f} ASC`)),
    fc.array(
      name.map((f) => `${f} DESC`),
      { maxLength: 2 },
    ),
    oddString,
  );
  const count = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 50 }) }, { weight: 1, arbitrary: oddNumber });
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ where, order, limit: count, skip: count }, { requiredKeys: [] }).map((f) => JSON.stringify(f)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: oddString },
  );
}

const patient = { firstName: 'Jens', lastName: 'Berger', birthDate: '1966-02-03', aftercareStart: '2026-10-01', aftercareEnd: '2027-01-31' };
const coach = { email: 'fuzz@example.org', firstName: 'Neu', lastName: 'Coach' };

/** A valid body per write route (method and catalogue path), the base that the generator varies. */
export function sampleBody(method: string, path: string, collection: string): unknown {
  const key = `${method} ${path}`;
  switch (key) {
    case 'POST /auth/login':
      return { email: 'fuzz-auth@example.org', password: 'Demo-Passwort-1' };
    case 'PATCH /auth/me/update-password':
      return { oldPassword: 'Demo-Passwort-1', newPassword: 'Demo-Passwort-1' };
    case 'POST /auth/me/set-password':
      return { password: 'Demo-Passwort-1' };
    case 'POST /auth/forgot-password':
      return { email: 'fuzz-auth@example.org' };
    case 'POST /coaches':
    case 'PUT /coaches/{id}':
      return coach;
    case 'PATCH /coaches/{id}':
      return { phone: '030 1' };
    case 'POST /coaches/connect':
      return { patientCode: 'AB-2345' };
    case 'POST /coaches/createPatientForMedian':
    case 'POST /patients':
    case 'PUT /patients/{id}':
      return patient;
    case 'PATCH /patients/{id}':
      return { phone: '030 2', aftercareEnd: '2027-03-01' };
    case 'POST /coaches/{id}/create-patient-token':
      return { patientId: 'p1' };
    case 'POST /patientTokens':
      return { patientId: 'p1' };
    case 'PUT /patientTokens/{id}':
      return { coachId: 'admin', patientId: 'p1', expiresAt: '2026-12-01T00:00:00Z' };
    case 'PATCH /patientTokens/{id}':
      return { expiresAt: '2026-12-01T00:00:00Z' };
    case 'POST /comments':
      return { patientId: 'p1', text: 'Anruf' };
    case 'PUT /comments/{id}':
    case 'PATCH /comments/{id}':
      return { text: 'Anruf, korrigiert' };
    case 'POST /cost-rates':
    case 'PUT /cost-rates/{id}':
      return { name: 'IRENA', amountCents: 2450, unit: 'session' };
    case 'PATCH /cost-rates/{id}':
      return { amountCents: 2500 };
    case 'POST /devices':
    case 'PUT /devices/{id}':
      return { name: 'Waage', type: 'scale', serialNumber: 'WB-1' };
    case 'PATCH /devices/{id}':
      return { name: 'Waage 2' };
    case 'POST /diagnosis':
    case 'PUT /diagnosis/{id}':
      return { code: 'G35', label: 'Multiple Sklerose' };
    case 'PATCH /diagnosis/{id}':
      return { label: 'Kreuzschmerz' };
    case 'POST /replicationEndpoint':
    case 'PUT /replicationEndpoint/{id}':
      return { name: 'Replikat', protocol: 'https', host: 'sync.example.org', port: 443 };
    case 'PATCH /replicationEndpoint/{id}':
      return { port: 8443 };
    case 'POST /surveys':
    case 'PUT /surveys/{id}':
      return { title: 'Schlaf', questions: [{ id: 'q', text: 'Wie schlafen Sie?', type: 'scale', min: 1, max: 5 }] };
    case 'PATCH /surveys/{id}':
      return { active: false };
    case 'PUT /patients/{id}/appointments':
      return [{ id: 'a1', startsAt: '2026-12-01T09:00:00.000Z', durationMinutes: 30, type: 'phone', note: '' }];
    case 'PUT /patients/{id}/evaluation-form':
      return { goalAttainment: 3, workAbility: 'able', returnToWorkDate: '2027-01-04', followUpRecommended: true, summary: 'Gut' };
    case 'PUT /patients/{patientId}/sync-db/{collection}':
      return { id: 'r1', data: (syncSamples as Record<string, unknown>)[collection] ?? {} };
    default:
      return {};
  }
}

/** Replaces one value somewhere in a valid body (top level or one level down, also in arrays) with an odd one. */
function mutate(body: unknown, pathChoice: number, value: unknown, extraKey: string | null): unknown {
  if (Array.isArray(body)) {
    if (body.length === 0) return [value];
    const i = pathChoice % body.length;
    return body.map((item, j) => (j === i ? mutate(item, Math.floor(pathChoice / 7), value, extraKey) : item));
  }
  if (body === null || typeof body !== 'object') return value;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (extraKey !== null || keys.length === 0) {
    Object.defineProperty(copy, extraKey ?? 'x', { value, enumerable: true, configurable: true, writable: true });
    return copy;
  }
  const key = keys[pathChoice % keys.length];
  copy[key] = pathChoice % 3 === 0 && copy[key] !== null && typeof copy[key] === 'object' ? mutate(copy[key], Math.floor(pathChoice / 3), value, null) : value;
  return copy;
}

/** Bodies for one write route: the valid sample, the sample with one odd value or odd extra key, or any JSON. */
export function bodyFor(method: string, path: string) {
  const collection = fc.constantFrom(...SYNC_COLLECTIONS, 'nope');
  return collection.chain((c) => {
    const sample = sampleBody(method, path, c);
    return fc.record({
      collection: fc.constant(c),
      body: fc.oneof(
        { weight: 1, arbitrary: fc.constant(sample) },
        {
          weight: 6,
          arbitrary: fc
            .tuple(fc.nat(1000), oddValue, fc.option(fc.constantFrom('__proto__', 'constructor', 'x\u0000', 'prototype'), { freq: 4 }))
            .map(([choice, value, extra]) => mutate(sample, choice, value, extra)),
        },
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      ),
    });
  });
}
