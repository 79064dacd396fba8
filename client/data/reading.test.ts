import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { issueFields, readingSchema, requiredFields } from './reading.ts';
import { LoginResponseSchema, LoginTokenSchema, MeSchema } from '../../contract/schemas/auth.ts';
import { ApiErrorBodySchema } from '../../contract/schemas/error.ts';
import { CoachListSchema, CoachSchema } from '../../contract/schemas/coaches.ts';
import { NewsListSchema } from '../../contract/schemas/news.ts';
import { PatientSchema, PrimaryCoachSchema } from '../../contract/schemas/patients.ts';
import { ReplicationEndpointSchema } from '../../contract/schemas/replication-endpoints.ts';
import { SystemSettingsSchema } from '../../contract/schemas/system.ts';
import { syncRecordSchema } from '../../contract/schemas/sync-db.ts';
import { SurveySchema } from '../../contract/schemas/surveys.ts';
import { DailyPatientsSchema } from '../../contract/schemas/statistics.ts';

function read<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
): { success: boolean; output?: v.InferOutput<S>; issues?: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] } {
  const result = v.safeParse(readingSchema(schema), value);
  return result.success ? { success: true, output: result.output as v.InferOutput<S> } : { success: false, issues: result.issues };
}
/** The user of a LoopBack 3 login answer as LoopBack 3 sends it: id, email and the four flags, nothing else. */
const minimalUser = { id: 7, email: 'coach@example.org', isUserLocked: false, isAdmin: true, isSuperAdmin: false, isHealthManager: false };

describe('reading answers leniently', () => {
  test('reads the minimal LoopBack user with a numeric id as a complete Me with defaults', () => {
    const result = read(MeSchema, minimalUser);
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ ...minimalUser, id: '7', firstName: '', lastName: '', emailVerified: false, language: '' });
  });

  test('the strict schema the built-in upstream checks its answers with still rejects that user', () => {
    expect(v.safeParse(MeSchema, minimalUser).success).toBe(false);
    expect(v.safeParse(MeSchema, { ...minimalUser, id: '7' }).success).toBe(false);
  });

  test.each(['id', 'email', 'isUserLocked', 'isAdmin', 'isSuperAdmin', 'isHealthManager'])(
    'refuses a user without %s, which docs/product.md shows',
    (field) => {
      const { [field as keyof typeof minimalUser]: _dropped, ...rest } = minimalUser;
      const result = read(MeSchema, rest);
      expect(result.success).toBe(false);
      expect(issueFields(result.issues!)).toEqual([field]);
    },
  );

  test('reads the token of a LoopBack login answer { id, ttl, userId, user } and nothing else', () => {
    const answer = { id: 'k3Yt0ken', ttl: 1209600, userId: 7, user: minimalUser, created: undefined };
    expect(read(LoginTokenSchema, answer).output).toEqual({ id: 'k3Yt0ken' });
    expect(read(LoginTokenSchema, { ttl: 1, user: minimalUser }).success).toBe(false);
    // The built-in upstream's own answer check is unchanged.
    expect(v.safeParse(LoginResponseSchema, answer).success).toBe(false);
  });

  test('turns ids into strings wherever they are: entity ids, references, nullable references and id lists', () => {
    const patient = read(PatientSchema, {
      id: 12,
      primaryCoachId: 7,
      costRateId: null,
      diagnosisIds: [3, '4'],
      appointments: [{ id: 1, startsAt: '2026-06-01T08:00:00.000Z' }],
    });
    expect(patient.success).toBe(true);
    expect(patient.output).toMatchObject({ id: '12', primaryCoachId: '7', costRateId: null, diagnosisIds: ['3', '4'], appointments: [{ id: '1' }] });
  });

  test('refuses ids that are neither text nor whole numbers', () => {
    for (const id of [1.5, '', true, null, { id: 1 }]) expect(read(CoachSchema, { id, email: 'a@b.c' }).success).toBe(false);
  });

  test('gives a coach without names empty names (screens then show the email) and every other field its default', () => {
    const result = read(CoachSchema, { id: 3, email: 'nora@example.org' });
    expect(result.output).toEqual({
      id: '3',
      email: 'nora@example.org',
      firstName: '',
      lastName: '',
      title: '',
      phone: '',
      isAdmin: false,
      isSuperAdmin: false,
      isHealthManager: false,
      isUserLocked: false,
      emailVerified: false,
      pendingEmail: null,
      language: 'de',
      trialEndsAt: null,
      createdAt: '',
      updatedAt: '',
    });
  });

  test('reads a waiting new address as it came, and one that is missing or unusable as none', () => {
    expect(read(CoachSchema, { id: 3, email: 'a@b.c', pendingEmail: 'neu@b.c' }).output?.pendingEmail).toBe('neu@b.c');
    for (const pendingEmail of [undefined, null, false, { to: 'x' }])
      expect(read(CoachSchema, { id: 3, email: 'a@b.c', pendingEmail }).output?.pendingEmail).toBeNull();
  });

  test('drops unknown fields', () => {
    const result = read(CoachSchema, { id: 3, email: 'a@b.c', realm: 'coaches', password: 'x', emailVerified: true });
    expect(result.output).not.toHaveProperty('realm');
    expect(result.output).not.toHaveProperty('password');
    expect(result.output?.emailVerified).toBe(true);
  });

  test('reads an optional field of the wrong type or null as its default instead of refusing the answer', () => {
    const result = read(PatientSchema, { id: 1, firstName: null, gender: 'm', appointments: 'none', lastDataAt: 5 });
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ firstName: '', gender: 'unknown', appointments: [], lastDataAt: '5' });
  });

  test('reads numbers in text fields as text', () => {
    expect(read(PatientSchema, { id: 1, phone: 301234567, patientCode: 4711 }).output).toMatchObject({ phone: '301234567', patientCode: '4711' });
  });

  test('does not share default lists between records', () => {
    const list = read(v.array(PatientSchema), [{ id: 1 }, { id: 2 }]).output!;
    list[0].diagnosisIds.push('x');
    expect(list[1].diagnosisIds).toEqual([]);
  });

  test('requires of news what docs/product.md shows: id, title and read', () => {
    expect(read(NewsListSchema, [{ id: 1, title: 'Hallo', read: false }]).output).toEqual([
      { id: '1', title: 'Hallo', read: false, body: '', publishedAt: '' },
    ]);
    expect(issueFields(read(NewsListSchema, [{ id: 1, title: 'Hallo' }]).issues!)).toEqual(['[].read']);
  });

  test('requires both system settings docs/product.md names', () => {
    expect(read(SystemSettingsSchema, { enable_creating_new_patients: true, instance_name: 'X', other: 1 }).success).toBe(true);
    expect(issueFields(read(SystemSettingsSchema, { instance_name: 'X' }).issues!)).toEqual(['enable_creating_new_patients']);
  });

  test('reads a replication endpoint with docs/product.md fields only, host and port left out', () => {
    expect(read(ReplicationEndpointSchema, { id: 2, name: 'Replica', protocol: 'https' }).output).toMatchObject({ id: '2', host: null, port: null, path: '' });
  });

  test('reads a primary coach card of null, and one without names', () => {
    expect(read(PrimaryCoachSchema, null).output).toBeNull();
    expect(read(PrimaryCoachSchema, { id: 4, email: 'x@y.z' }).output).toMatchObject({ id: '4', firstName: '', email: 'x@y.z' });
  });

  test('requires the data of a sync record and reads its fields leniently', () => {
    const schema = syncRecordSchema('day-evaluation');
    expect(read(schema, { id: 'de-1', patientId: 3, data: { date: '2026-06-01', mood: 4 } }).output).toMatchObject({
      patientId: '3',
      date: null,
      data: { date: '2026-06-01', mood: 4, sleep: 0, pain: null, notes: '' },
    });
    expect(issueFields(read(schema, { id: 'de-1', patientId: 3 }).issues!)).toEqual(['data']);
  });

  test('names nested fields that do not fit with list positions collapsed, never their values', () => {
    const result = read(DailyPatientsSchema, [
      { date: '2026-06-01', count: 3 },
      { date: '2026-06-02', count: 'viele' },
    ]);
    expect(issueFields(result.issues!)).toEqual(['[].count']);
  });

  test('reads a LoopBack error body without code and with details as an object', () => {
    const result = read(ApiErrorBodySchema, {
      error: { statusCode: 422, name: 'ValidationError', message: 'invalid', details: { codes: { email: ['presence'] } } },
    });
    expect(result.output).toEqual({ error: { statusCode: 422, name: 'ValidationError', code: '', message: 'invalid', details: undefined } });
  });

  test('in complete mode names every field that would be read with a default', () => {
    const result = v.safeParse(readingSchema(CoachListSchema, 'complete'), [
      {
        id: 3,
        email: 'a@b.c',
        firstName: 'A',
        lastName: 'B',
        title: '',
        phone: '',
        isAdmin: false,
        isSuperAdmin: false,
        isHealthManager: false,
        isUserLocked: false,
        emailVerified: true,
        language: 'de',
        trialEndsAt: null,
        createdAt: 'x',
      },
    ]);
    expect(issueFields(result.issues!)).toEqual(['[].updatedAt']);
  });

  test('every object with an id requires it', () => {
    expect(requiredFields(SurveySchema as never)).toEqual(['id', 'title']);
  });
});

describe('pipes', () => {
  test('keeps a transformation of the strict schema, so a screen gets the shape it expects', () => {
    const Wrapped = v.pipe(
      v.array(v.object({ id: v.string() })),
      v.transform((items) => ({ items, count: items.length })),
    );
    expect(v.parse(readingSchema(Wrapped), [{ id: 7 }, { id: 'b' }])).toEqual({ items: [{ id: '7' }, { id: 'b' }], count: 2 });
  });

  test("does not repeat the writer's checks when reading", () => {
    const Named = v.object({ id: v.string(), name: v.pipe(v.string(), v.minLength(3)) });
    expect(v.parse(readingSchema(Named), { id: 1, name: 'Al' })).toEqual({ id: '1', name: 'Al' });
  });
});
