import type { Request, Router } from 'express';
import { LbError, caller, crud, filterOf, notFound, queryArg, type Lb3 } from './rest.ts';
import type { Row } from './store.ts';

const DAY = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);
const COLLECTIONS = [
  'day-evaluation',
  'day-stats',
  'event',
  'event-template',
  'form',
  'internal',
  'life-section',
  'settings',
  'survey',
  'survey-result',
  'timeframe',
  'timeframe-evaluation',
];

/** from/to of a statistics call: to defaults to today, from to 89 days before. */
function period(req: Request, lb: Lb3) {
  const to = String(queryArg(req, 'to') ?? day(lb.now()));
  const from = String(queryArg(req, 'from') ?? day(new Date(Date.parse(to) - 89 * DAY)));
  if (from > to) throw new LbError(400, 'from must not be after to', 'ValidationError');
  const days: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY) days.push(day(new Date(t)));
  return { from, to, days };
}

const status = (patient: Row, on: string) => (String(patient.aftercareStart) > on ? 'planned' : String(patient.aftercareEnd) < on ? 'completed' : 'active');

export function dataRoutes(api: Router, lb: Lb3): void {
  const m = lb.models;
  // The author is whoever writes (registered before the standard REST, which would take the POST).
  api.post('/comments', (req, res) => {
    res.json(m.comments.create({ ...req.body, authorId: caller(res).id, createdAt: lb.now().toISOString() }));
  });
  crud(api, '/comments', m.comments);
  crud(api, '/externalComments', m.externalComments, { readOnly: true });
  crud(api, '/cost-rates', m.costRates);
  crud(api, '/devices', m.devices);
  crud(api, '/diagnosis', m.diagnosis);
  crud(api, '/patientTokens', m.patientTokens);
  crud(api, '/replicationEndpoint', m.replicationEndpoints);
  crud(api, '/surveys', m.surveys);
  crud(api, '/synced-patients', m.syncedPatients, { readOnly: true });

  api.get('/news', (_req, res) => {
    const coachId = caller(res).id;
    res.json(m.news.find({ order: 'id DESC' }).map((item) => ({ ...item, read: m.newsReads.find({ where: { newsId: item.id, coachId } }).length > 0 })));
  });
  const setRead = (read: boolean) => (req: Request, res: Parameters<Parameters<Router['post']>[1]>[1]) => {
    if (!m.news.findById(req.params.id)) throw notFound('News', req.params.id);
    const where = { newsId: Number(req.params.id), coachId: Number(req.params.coachId) };
    for (const row of m.newsReads.find({ where })) m.newsReads.remove(row.id);
    if (read) m.newsReads.create(where);
    res.status(204).end();
  };
  api.post('/news/:id/read/:coachId', setRead(true));
  api.post('/news/:id/unread/:coachId', setRead(false));

  api.get('/statistics/patient-statistics', (req, res) => {
    const { from, to } = period(req, lb);
    const all = m.patients.find();
    const count = (s: string) => all.filter((p) => status(p, to) === s).length;
    res.json({ from, to, total: all.length, planned: count('planned'), active: count('active'), completed: count('completed') });
  });
  api.get('/statistics/patient-detail-statistics', (req, res) => {
    const { from, to } = period(req, lb);
    const rows = m.patients
      .find({ where: { aftercareStart: { lte: to }, aftercareEnd: { gte: from } }, order: 'lastName ASC' })
      .map((p) => ({ patientId: p.id, patientCode: p.patientCode, firstName: p.firstName, lastName: p.lastName, status: status(p, to) }));
    const skip = Number(queryArg(req, 'skip') ?? 0);
    const limit = Number(queryArg(req, 'limit') ?? rows.length);
    res.json(rows.slice(skip, skip + limit));
  });
  api.get('/statistics/daily-patients-in-aftercare', (req, res) => {
    const patients = m.patients.find();
    res.json(period(req, lb).days.map((date) => ({ date, count: patients.filter((p) => status(p, date) === 'active').length })));
  });
  api.get('/statistics/phone-coachings', (req, res) => {
    res.json(
      period(req, lb).days.map((date) => {
        const calls = m.phoneCalls.find({ where: { date } });
        return { date, count: calls.length, minutes: calls.reduce((sum, call) => sum + Number(call.minutes), 0) };
      }),
    );
  });

  api.get('/system/settings', (_req, res) => {
    res.json(lb.settings);
  });
  api.get('/system/training-materials', (_req, res) => {
    res.json(m.materials.find());
  });
  api.get('/app-settings', (_req, res) => {
    res.json({ appName: 'Nachsorge-App', supportEmail: 'hilfe@lb3.example.com' });
  });
  api.get('/app-settings/version', (_req, res) => {
    res.json({ version: '3.4.1', name: 'nachsorge-api' });
  });
  api.get('/app-settings/asset/:id', (req, res) => {
    if (req.params.id !== '1') throw notFound('Asset', req.params.id);
    res.type('text/plain').send('Handbuch für Coaches\n');
  });

  // Synchronised collections: stored per patient and collection, read and written by id.
  const collection = (req: Request) => {
    const { patientId, collection: name } = req.params as Record<string, string>;
    if (!COLLECTIONS.includes(name)) throw new LbError(404, `Unknown collection ${name}`);
    if (!m.patients.findById(patientId)) throw notFound('Patient', patientId);
    return { patientId: Number(patientId), collection: name };
  };
  api.get('/patients/:patientId/sync-db/:collection', (req, res) => {
    const filter = filterOf(req);
    const scope = collection(req);
    res.json(
      m.syncRecords.find({ ...filter, where: filter.where ? { and: [scope, filter.where] } : scope }).map(({ recordId, ...row }) => ({ ...row, id: recordId })),
    );
  });
  api.put('/patients/:patientId/sync-db/:collection', (req, res) => {
    const scope = collection(req);
    const existing = m.syncRecords.find({ where: { ...scope, recordId: req.body?.id } })[0];
    if (existing) m.syncRecords.remove(existing.id);
    const { recordId, ...row } = m.syncRecords.create({ ...scope, recordId: req.body?.id, data: req.body?.data, updatedAt: lb.now().toISOString() });
    res.json({ ...row, id: recordId });
  });
  api.get('/patients/:patientId/sync-db/:collection/:id', (req, res) => {
    const found = m.syncRecords.find({ where: { ...collection(req), recordId: req.params.id } })[0];
    if (!found) throw notFound('SyncRecord', req.params.id);
    const { recordId, ...row } = found;
    res.json({ ...row, id: recordId });
  });
  api.delete('/patients/:patientId/sync-db/:collection/:id', (req, res) => {
    const found = m.syncRecords.find({ where: { ...collection(req), recordId: req.params.id } })[0];
    res.json({ count: found ? m.syncRecords.remove(found.id) : 0 });
  });
}
