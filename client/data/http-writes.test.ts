import { afterEach, describe, expect, test, vi } from 'vitest';
import * as v from 'valibot';
import { InvalidAnswerError, onUnauthorized, request } from './http.ts';
import { saveAppointments } from '../api/patients.ts';
import { createPatientToken } from '../api/coaches.ts';
import { json, mockFetch } from '../../test/helpers/client-fetch.ts';
import { reportError } from '../lib/error-reporting.ts';
import { errorText, saveFailureText } from '../components/errorText.ts';
import { buildPatient } from '../../test/helpers/screen-records.ts';
import { buildAppointment } from '../../test/helpers/my-day-records.ts';

vi.mock('../lib/error-reporting.ts', () => ({ reportError: vi.fn() }));

// A 2xx to a write means it is stored: an answer of another shape is read again, never reported as a failed save.

afterEach(() => {
  vi.unstubAllGlobals();
  onUnauthorized(null);
  vi.mocked(reportError).mockClear();
});

const ThingSchema = v.object({ id: v.string(), name: v.string(), size: v.number() });

describe('a write answered with another shape', () => {
  test('PATCH reads its record again (GET) and gives that, reporting the shape once', async () => {
    const { calls } = mockFetch({
      'PATCH /things-a/7': json({ ok: true }),
      'GET /things-a/7': json({ id: 7, name: 'stored', size: 3 }, { headers: { ETag: '"v2"' } }),
    });
    const result = await request('PATCH', '/things-a/7', { body: { name: 'stored' }, schema: ThingSchema });
    expect(result.data).toEqual({ id: '7', name: 'stored', size: 3 });
    expect(result.etag).toBe('"v2"');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PATCH /v2/things-a/7', 'GET /v2/things-a/7']);
    expect(reportError).toHaveBeenCalledOnce();
    expect(vi.mocked(reportError).mock.calls[0][0]).toBeInstanceOf(InvalidAnswerError);
  });

  test('a body that is not JSON is read again too', async () => {
    mockFetch({ 'PUT /things-b/1': new Response('OK', { status: 200 }), 'GET /things-b/1': json({ id: '1', name: 'n', size: 1 }) });
    expect((await request('PUT', '/things-b/1', { body: {}, schema: ThingSchema })).data.name).toBe('n');
  });

  test('when even the record read again is unusable, the error says it was saved', async () => {
    mockFetch({ 'PATCH /things-c/1': json({}), 'GET /things-c/1': json({}) });
    const error = await request('PATCH', '/things-c/1', { body: {}, schema: ThingSchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as InvalidAnswerError).written).toBe(true);
    expect(errorText(error)).toMatch(/^Gespeichert\./);
    expect(errorText(error)).not.toContain('nicht gespeichert');
    // A screen's "Nicht gespeichert." lead is left out for a stored write.
    expect(saveFailureText('Nicht gespeichert.', error)).toBe(errorText(error));
    expect(saveFailureText('Nicht gespeichert.', new InvalidAnswerError(200, 'GET /v2/x', []))).toMatch(/^Nicht gespeichert\. /);
  });

  test('a GET with an unusable answer is not read again', async () => {
    const { calls } = mockFetch({ 'GET /things-d/1': json({}) });
    await expect(request('GET', '/things-d/1', { schema: ThingSchema })).rejects.toBeInstanceOf(InvalidAnswerError);
    expect(calls).toHaveLength(1);
  });

  test('appointments answered with the patient are read from the patient', async () => {
    const patient = buildPatient({ id: 'p1', appointments: [buildAppointment('2026-12-01T09:00:00.000Z')] });
    const { calls } = mockFetch({ 'PUT /patients/p1/appointments': json(patient), 'GET /patients/p1': json(patient, { headers: { ETag: '"p-v3"' } }) });
    const result = await saveAppointments('p1', patient.appointments);
    expect(result.data.map((a) => a.startsAt)).toEqual(['2026-12-01T09:00:00.000Z']);
    expect(result.etag).toBe('"p-v3"');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /v2/patients/p1/appointments', 'GET /v2/patients/p1']);
    expect(reportError).toHaveBeenCalledOnce();
  });

  test('a new access code answered with another shape is read from the token it names', async () => {
    mockFetch({ 'POST /coaches/c1/create-patient-token': json({ id: 41, token: 'K7QMR3TXW' }), 'GET /patientTokens/41': json({ id: 41, code: 'K7QMR3TXW' }) });
    expect((await createPatientToken('c1')).data.code).toBe('K7QMR3TXW');
  });
});
