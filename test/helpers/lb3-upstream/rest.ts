import { randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { Model, type Filter, type Row } from './store.ts';

/* What the routes of the LoopBack-style test upstream share: its state, its errors, query args, the standard REST. */

export class LbError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string, name = 'Error') {
    super(message);
    this.statusCode = statusCode;
    this.name = name;
  }
}
export const notFound = (model: string, id: unknown) => new LbError(404, `Unknown "${model}" id "${id}".`);

export interface Mail {
  to: string;
  link: string;
  at: number;
}

export interface Lb3Options {
  /** "today" of the seeded data and the statistics; defaults to the real clock. */
  now?: () => Date;
  /** Tests of an upstream that answers differently: changes the JSON answer of a path before it is sent. */
  rewrite?: (path: string, body: unknown) => unknown;
}

export type Lb3 = ReturnType<typeof createLb3State>;

export function createLb3State(options: Lb3Options) {
  const models = {
    coaches: new Model('Coach'),
    patients: new Model('Patient'),
    comments: new Model('Comment'),
    externalComments: new Model('ExternalComment'),
    costRates: new Model('CostRate'),
    devices: new Model('Device'),
    diagnosis: new Model('Diagnosis'),
    patientTokens: new Model('PatientToken'),
    replicationEndpoints: new Model('ReplicationEndpoint'),
    surveys: new Model('Survey'),
    syncedPatients: new Model('SyncedPatient'),
    news: new Model('News'),
    newsReads: new Model('NewsRead'),
    puks: new Model('Puk'),
    patientCoaches: new Model('PatientCoach'),
    patientDevices: new Model('PatientDevice'),
    evaluationForms: new Model('EvaluationForm'),
    syncRecords: new Model('SyncRecord'),
    phoneCalls: new Model('PhoneCall'),
    materials: new Model('TrainingMaterial'),
  };
  const tokens = new Map<string, { userId: number; created: number; ttl: number; kind: 'access' | 'reset' }>();
  const outbox: Mail[] = [];
  /** Every /v2 request as "METHOD /path", for tests that check what a client sent. */
  const requests: string[] = [];
  const now = options.now ?? (() => new Date());
  return {
    models,
    tokens,
    outbox,
    requests,
    now,
    settings: { enable_creating_new_patients: true, instance_name: 'Nachsorge LB3' },
    issueToken(userId: number, kind: 'access' | 'reset', ttl: number): string {
      const id = randomBytes(32).toString('hex');
      tokens.set(id, { userId, created: now().getTime(), ttl, kind });
      return id;
    },
  };
}

/** The coach a request is made by (set by the token check). */
export const caller = (res: Response): Row => res.locals.coach as Row;

/** LoopBack's JSON query args: `filter` is an object; other values are sent JSON-encoded (docs/product.md#calls). */
export function queryArg(req: Request, name: string): unknown {
  const raw = req.query[name];
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
export const filterOf = (req: Request): Filter => (queryArg(req, 'filter') as Filter | undefined) ?? {};

/** The standard REST of a LoopBack PersistedModel. */
export function crud(router: Router, path: string, model: Model, options: { readOnly?: boolean; hide?: string[] } = {}): void {
  const shown = (row: Row) => Object.fromEntries(Object.entries(row).filter(([key]) => !options.hide?.includes(key)));
  router.get(path, (req, res) => {
    res.json(model.find(filterOf(req)).map(shown));
  });
  router.get(`${path}/:id`, (req, res) => {
    const row = model.findById(req.params.id);
    if (!row) throw notFound(model.name, req.params.id);
    res.json(shown(row));
  });
  if (options.readOnly) return;
  router.post(path, (req, res) => {
    res.json(shown(model.create(req.body ?? {})));
  });
  router.put(`${path}/:id`, (req, res) => {
    const row = model.replace(req.params.id, req.body ?? {});
    if (!row) throw notFound(model.name, req.params.id);
    res.json(shown(row));
  });
  router.patch(`${path}/:id`, (req, res) => {
    const row = model.update(req.params.id, req.body ?? {});
    if (!row) throw notFound(model.name, req.params.id);
    res.json(shown(row));
  });
  router.delete(`${path}/:id`, (req, res) => {
    res.json({ count: model.remove(req.params.id) });
  });
}
