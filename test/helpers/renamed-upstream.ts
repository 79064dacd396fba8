import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type FakeUpstream, startFakeUpstream } from './gateway-fixtures.ts';

/*
 * A small /v2 upstream that names fields its own way (birthday, coachId, sex f/m/d/u, token, amount in euros, flat
 * sync records with moodScore, appointments with start/minutes), and the mapping file that describes it. Written for
 * the gateway's translation tests; it shares nothing with the built-in upstream.
 */

/** The mapping for this upstream, in the format of README "The field mapping". */
export const RENAMED_MAPPING = {
  entities: {
    Patient: {
      fields: {
        birthDate: 'birthday',
        primaryCoachId: 'coachId',
        lastName: 'surname',
        gender: { name: 'sex', values: { female: 'f', male: 'm', diverse: 'd', unknown: 'u' } },
      },
    },
    Appointment: { fields: { startsAt: 'start', durationMinutes: 'minutes' } },
    PatientToken: { fields: { code: 'token' } },
    CostRate: { fields: { amountCents: { name: 'amount', scale: 100 } } },
    SyncRecord: { flat: true, fields: { updatedAt: 'modified' } },
    DayEvaluationData: { fields: { mood: 'moodScore' } },
  },
};

/** A mapping file in a temporary folder (any content: a wrong one for the start-up tests). */
export function mappingFile(content: unknown = RENAMED_MAPPING, name = 'mapping.json'): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-mapping-'));
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A patient as this upstream stores it. */
export const API_PATIENT = {
  id: 41,
  patientCode: 'NK-4821',
  firstName: 'Erika',
  surname: 'Muster',
  birthday: '1970-03-01',
  sex: 'f',
  coachId: 7,
  aftercareStart: '2026-01-01',
  aftercareEnd: '2026-06-30',
  appointments: [{ id: 'a1', start: '2026-02-01T09:00:00.000Z', minutes: 30, type: 'phone', note: '' }],
};
export const API_TOKEN = { id: 5, token: 'K7QM-X3PA-9R', coachId: 7, patientId: 41, expiresAt: '2026-12-01T00:00:00.000Z', usedAt: null };
export const API_COST_RATE = { id: 'c1', name: 'IRENA Gruppe', amount: 19.99, unit: 'session' };
export const API_DAY_EVALUATION = {
  id: 'de-1',
  patientId: 41,
  date: '2026-02-01',
  modified: '2026-02-01T20:00:00.000Z',
  moodScore: 4,
  sleep: 3,
  stress: 2,
  notes: '',
};

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};

/** Answers in chunks without Content-Length, so a test can tell a streamed answer from a rewritten one. */
const chunked = (res: ServerResponse, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Total-Count': '1' });
  res.write(text.slice(0, 10));
  res.end(text.slice(10));
};

const loopbackError = (res: ServerResponse, status: number, message: string) =>
  json(res, status, { error: { statusCode: status, name: 'Error', message, birthday: 'kept as it came' } });

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://upstream');
  let sent: Record<string, unknown> = {};
  try {
    sent = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return loopbackError(res, 400, 'body is not JSON');
  }
  const key = `${req.method} ${url.pathname}`;
  if (key === 'POST /v2/auth/login') return json(res, 200, { id: 'token-1', ttl: 1209600, userId: 7 });
  if (key === 'POST /v2/auth/logout') return void res.writeHead(204).end();
  if (key === 'GET /v2/auth/me')
    return json(res, 200, { id: 7, email: 'coach@example.org', isUserLocked: false, isAdmin: true, isSuperAdmin: false, isHealthManager: true });
  if (key === 'GET /v2/patientTokens') return json(res, 200, [API_TOKEN]);
  if (key === 'GET /v2/patients') return chunked(res, [API_PATIENT]);
  if (key === 'GET /v2/patients/41') return json(res, 200, API_PATIENT, { ETag: '"v7"' });
  if (key === 'GET /v2/patients/404') return loopbackError(res, 404, 'Unknown "patient" id "404".');
  if (key === 'PATCH /v2/patients/41' || key === 'POST /v2/patients') return json(res, 200, { ...API_PATIENT, ...sent });
  if (key === 'POST /v2/patients/41/bad') return loopbackError(res, 422, 'invalid');
  if (key === 'PUT /v2/patients/41/appointments') return json(res, 200, sent);
  if (key === 'GET /v2/coaches/create-trial-access') return json(res, 200, { patient: API_PATIENT, token: API_TOKEN });
  if (key === 'GET /v2/patients/41/token/get-or-create-unused') {
    const text = JSON.stringify(API_TOKEN);
    // Compressed when the gateway allows it: a translated call must ask for plain JSON.
    if (/gzip/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      return void res.end(gzipSync(text));
    }
    return json(res, 200, API_TOKEN);
  }
  if (key === 'GET /v2/coaches/7/patients') {
    // Big enough to be compressed for the browser; compressed here too when the gateway allows it.
    const text = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ ...API_PATIENT, id: i })));
    const gzip = /gzip/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(200, { 'Content-Type': 'application/json', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
    return void res.end(gzip ? gzipSync(text) : text);
  }
  if (key === 'GET /v2/patientTokens/5') {
    // Compressed although the gateway asked for plain JSON.
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    return void res.end(gzipSync(JSON.stringify(API_TOKEN)));
  }
  if (key === 'GET /v2/cost-rates') return json(res, 200, [API_COST_RATE]);
  if (key === 'POST /v2/cost-rates') return json(res, 200, { id: 'c2', ...sent });
  if (key === 'GET /v2/patients/41/sync-db/day-evaluation') return json(res, 200, [API_DAY_EVALUATION]);
  if (key === 'PUT /v2/patients/41/sync-db/day-evaluation') return json(res, 200, { ...sent, patientId: 41, modified: '2026-02-02T08:00:00.000Z' });
  if (key === 'GET /v2/app-settings/asset/a1') {
    res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': '8' });
    return void res.end('%PDF-1.4');
  }
  if (key === 'GET /v2/news') return chunked(res, [{ id: 'n1', title: 'Neu', birthday: 'not a patient' }]);
  if (key === 'GET /v2/custom/birthdays') return json(res, 200, [{ birthday: '1970-03-01', coachId: 7 }]);
  return loopbackError(res, 404, `no route ${key}`);
}

/** The renamed upstream on an ephemeral port; `requests` holds what the gateway sent (URL, headers, body). */
export function startRenamedUpstream(): Promise<FakeUpstream> {
  return startFakeUpstream(route);
}
