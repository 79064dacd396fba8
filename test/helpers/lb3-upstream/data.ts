import { type Lb3, dayOf, httpError, pathArg, root } from './state.ts';

/* News read state, statistics, system and app settings: remote methods on models without a table of their own. */

const DAY = 86_400_000;
const SIGNED_IN = [
  { principalType: 'ROLE', principalId: '$everyone', permission: 'DENY' },
  { principalType: 'ROLE', principalId: '$authenticated', permission: 'ALLOW' },
];

/** A model that only carries remote methods, at /v2/{plural}. */
function service(app: any, name: string, plural: string, acls: object[] = SIGNED_IN) {
  const model = app.registry.createModel({ name, base: 'Model', plural });
  app.model(model, { dataSource: null, public: true });
  model.settings.acls = acls;
  return model;
}

/** Query values arrive JSON-encoded (docs/product.md#calls): "\"2026-06-01\"" is the day 2026-06-01. */
function queryValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
const queryArg = (arg: string) => ({ arg, type: 'string', http: { source: 'query' } });

export function defineNews(lb: Lb3): void {
  const { News, NewsRead } = lb.models;
  News.settings.acls = [
    ...SIGNED_IN.slice(0, 1),
    { principalType: 'ROLE', principalId: '$authenticated', permission: 'ALLOW', accessType: 'READ' },
    { principalType: 'ROLE', principalId: '$authenticated', permission: 'ALLOW', accessType: 'EXECUTE' },
  ];
  // The list shows each item's read state for the calling coach.
  News.afterRemote('find', async (ctx: any) => {
    const coachId = ctx.req.accessToken?.userId;
    const read = new Set((await NewsRead.find({ where: { coachId } })).map((row: any) => row.newsId));
    ctx.result = ctx.result.map((item: any) => ({ ...item.toJSON(), read: read.has(item.id) }));
  });
  const mark = (read: boolean) => async (id: number, coachId: number) => {
    if (!(await News.findById(id))) throw httpError(404, `Unknown "News" id "${id}".`, 'MODEL_NOT_FOUND');
    await NewsRead.destroyAll({ newsId: id, coachId });
    if (read) await NewsRead.create({ newsId: id, coachId });
  };
  News.markRead = mark(true);
  News.markUnread = mark(false);
  News.remoteMethod('markRead', { http: { verb: 'post', path: '/:id/read/:coachId' }, accepts: [pathArg('id'), pathArg('coachId')] });
  News.remoteMethod('markUnread', { http: { verb: 'post', path: '/:id/unread/:coachId' }, accepts: [pathArg('id'), pathArg('coachId')] });
}

export function defineStatistics(app: any, lb: Lb3): void {
  const { Patient, PhoneCall } = lb.models;
  const Statistics = service(app, 'Statistics', 'statistics', [SIGNED_IN[0], { principalType: 'ROLE', principalId: 'healthManager', permission: 'ALLOW' }]);
  const period = (fromRaw: unknown, toRaw: unknown) => {
    const to = String(queryValue(toRaw) ?? dayOf(lb.now()));
    const from = String(queryValue(fromRaw) ?? dayOf(new Date(Date.parse(to) - 89 * DAY)));
    if (from > to) throw httpError(400, 'from must not be after to');
    const days: string[] = [];
    for (let t = Date.parse(from); t <= Date.parse(to); t += DAY) days.push(dayOf(new Date(t)));
    return { from, to, days };
  };
  const status = (patient: any, on: string) => (patient.programStart > on ? 'planned' : patient.programEnd < on ? 'completed' : 'active');
  const define = (name: string, path: string, extra: object[], handler: (...args: any[]) => Promise<unknown>) => {
    Statistics[name] = handler;
    Statistics.remoteMethod(name, { http: { verb: 'get', path }, accepts: [queryArg('from'), queryArg('to'), ...extra], returns: root('any') });
  };

  define('patientStatistics', '/patient-statistics', [], async (fromRaw, toRaw) => {
    const { from, to } = period(fromRaw, toRaw);
    const all = await Patient.find();
    const count = (s: string) => all.filter((p: any) => status(p, to) === s).length;
    return { from, to, total: all.length, planned: count('planned'), active: count('active'), completed: count('completed') };
  });
  define('patientDetailStatistics', '/patient-detail-statistics', [queryArg('skip'), queryArg('limit')], async (fromRaw, toRaw, skipRaw, limitRaw) => {
    const { from, to } = period(fromRaw, toRaw);
    const rows = (await Patient.find({ where: { programStart: { lte: to }, programEnd: { gte: from } }, order: 'lastName ASC' })).map((p: any) => ({
      patientId: p.id,
      patientCode: p.patientCode,
      firstName: p.firstName,
      lastName: p.lastName,
      status: status(p, to),
    }));
    const skip = Number(queryValue(skipRaw) ?? 0);
    return rows.slice(skip, skip + Number(queryValue(limitRaw) ?? rows.length));
  });
  define('dailyPatientsInAftercare', '/daily-patients-in-aftercare', [], async (fromRaw, toRaw) => {
    const patients = await Patient.find();
    return period(fromRaw, toRaw).days.map((date) => ({ date, count: patients.filter((p: any) => status(p, date) === 'active').length }));
  });
  define('phoneCoachings', '/phone-coachings', [], async (fromRaw, toRaw) => {
    const { from, to, days } = period(fromRaw, toRaw);
    const calls = await PhoneCall.find({ where: { date: { between: [from, to] } } });
    return days.map((date) => {
      const held = calls.filter((call: any) => call.date === date);
      return { date, count: held.length, minutes: held.reduce((sum: number, call: any) => sum + call.minutes, 0) };
    });
  });
}

export function defineSettings(app: any, lb: Lb3): void {
  const System = service(app, 'System', 'system');
  System.settingsOf = async () => ({ enable_creating_new_patients: true, instance_name: 'Nachsorge LB3' });
  System.remoteMethod('settingsOf', { http: { verb: 'get', path: '/settings' }, returns: root() });
  System.trainingMaterials = async () => lb.models.TrainingMaterial.find();
  System.remoteMethod('trainingMaterials', { http: { verb: 'get', path: '/training-materials' }, returns: root('[TrainingMaterial]') });

  const AppSettings = service(app, 'AppSettings', 'app-settings', [
    SIGNED_IN[0],
    SIGNED_IN[1],
    { principalType: 'ROLE', principalId: '$everyone', permission: 'ALLOW', property: ['version', 'asset'] },
  ]);
  AppSettings.settingsOf = async () => ({ appName: 'Nachsorge-App', supportEmail: 'hilfe@lb3.example.com' });
  AppSettings.remoteMethod('settingsOf', { http: { verb: 'get', path: '/' }, returns: root() });
  AppSettings.version = async () => ({ version: '3.4.1', name: 'nachsorge-api' });
  AppSettings.remoteMethod('version', { http: { verb: 'get', path: '/version' }, returns: root() });
  // A file answer: LoopBack sends the Buffer with the Content-Type the method returns.
  AppSettings.asset = async (id: number) => {
    if (id !== 1) throw httpError(404, `Unknown "Asset" id "${id}".`, 'MODEL_NOT_FOUND');
    return [Buffer.from('Handbuch für Coaches\n'), 'text/plain; charset=utf-8'];
  };
  AppSettings.remoteMethod('asset', {
    http: { verb: 'get', path: '/asset/:id' },
    accepts: [pathArg('id')],
    returns: [
      { arg: 'body', type: 'file', root: true },
      { arg: 'Content-Type', type: 'string', http: { target: 'header' } },
    ],
  });
}
