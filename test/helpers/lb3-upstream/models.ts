/*
 * The models of the LoopBack 3 test upstream, declared the way a LoopBack 3 project's common/models/*.json would
 * declare them, but in code. Field names are this API's own (a customer's choice, not the contract's): a patient's
 * dateOfBirth, programStart/programEnd and leadCoachId, gender as W/M/D/X, an access code's accessCode, a cost rate's
 * designation and amountEuro, a survey's headline, and synchronised records flat (SyncEntry). mapping.json says how
 * they map onto the contract's names.
 */

const now = { type: 'date', defaultFn: 'now' };
const text = (fallback = '') => ({ type: 'string', default: fallback });

/** Roles: $authenticated reads and runs remote methods; `admin` (isAdmin or isSuperAdmin, see roles.ts) writes reference data. */
const deny = { principalType: 'ROLE', principalId: '$everyone', permission: 'DENY' };
const acl = (principalId: string, extra: Record<string, unknown>) => ({ principalType: 'ROLE', principalId, permission: 'ALLOW', ...extra });
export const SIGNED_IN = [deny, acl('$authenticated', {})];
export const REFERENCE = [deny, acl('$authenticated', { accessType: 'READ' }), acl('admin', {})];

const DEFINITIONS: Record<string, any>[] = [
  { name: 'CoachToken', base: 'AccessToken', relations: { user: { type: 'belongsTo', model: 'Coach', foreignKey: 'userId' } } },
  {
    name: 'Coach',
    base: 'User',
    plural: 'coaches',
    // A reset link's token may only set the password (User.setPassword), nothing else.
    restrictResetPasswordTokenScope: true,
    properties: {
      firstName: text(),
      lastName: text(),
      title: text(),
      phone: text(),
      language: text('de'),
      isAdmin: { type: 'boolean', default: false },
      isSuperAdmin: { type: 'boolean', default: false },
      isHealthManager: { type: 'boolean', default: false },
      isUserLocked: { type: 'boolean', default: false },
      emailVerified: { type: 'boolean', default: true },
      createdAt: now,
      updatedAt: now,
    },
    relations: { accessTokens: { type: 'hasMany', model: 'CoachToken', foreignKey: 'userId', options: { disableInclude: true } } },
  },
  {
    name: 'Patient',
    properties: {
      patientCode: 'string',
      firstName: text(),
      lastName: text(),
      dateOfBirth: text(),
      gender: { type: 'string', default: 'X' },
      email: { type: 'string', default: null },
      phone: { type: 'string', default: null },
      clinic: text(),
      programStart: 'string',
      programEnd: 'string',
      leadCoachId: { type: 'number', default: null },
      diagnosisIds: { type: ['number'], default: [] },
      costRateId: { type: 'number', default: null },
      appointments: { type: ['object'], default: [] },
      lastDataAt: { type: 'date', default: null },
      followUpAt: { type: 'string', default: null },
      createdAt: now,
      updatedAt: now,
    },
    relations: {
      // GET /patients/{id}/primary-coach: null when the patient has no lead coach.
      leadCoach: { type: 'belongsTo', model: 'Coach', foreignKey: 'leadCoachId', options: { http: { path: 'primary-coach' } } },
      coaches: { type: 'hasMany', model: 'Coach', through: 'PatientCoach', foreignKey: 'patientId', keyThrough: 'coachId' },
      devices: { type: 'hasMany', model: 'Device', through: 'PatientDevice', foreignKey: 'patientId', keyThrough: 'deviceId' },
      puks: { type: 'hasMany', model: 'Puk', foreignKey: 'patientId' },
      // A hasOne: GET answers 404 until the first save.
      evaluationForm: { type: 'hasOne', model: 'EvaluationForm', foreignKey: 'patientId', options: { http: { path: 'evaluation-form' } } },
    },
  },
  { name: 'PatientCoach', properties: { patientId: 'number', coachId: 'number' }, relations: { coach: { type: 'belongsTo', model: 'Coach' } } },
  { name: 'PatientDevice', properties: { patientId: 'number', deviceId: 'number' }, relations: { device: { type: 'belongsTo', model: 'Device' } } },
  {
    name: 'PatientToken',
    plural: 'patientTokens',
    properties: {
      accessCode: 'string',
      coachId: 'number',
      patientId: { type: 'number', default: null },
      expiresAt: 'date',
      usedAt: { type: 'date', default: null },
      createdAt: now,
    },
  },
  // Recovery keys, newest first (the relation list has no order of its own).
  { name: 'Puk', properties: { patientId: 'number', code: 'string', createdAt: now, usedAt: { type: 'date', default: null } }, scope: { order: 'id DESC' } },
  {
    name: 'EvaluationForm',
    properties: {
      patientId: 'number',
      goalAttainment: { type: 'number', default: null },
      workAbility: { type: 'string', default: null },
      returnToWorkDate: { type: 'string', default: null },
      followUpRecommended: { type: 'boolean', default: false },
      summary: text(),
      updatedBy: 'number',
      updatedAt: now,
    },
  },
  { name: 'Comment', properties: { patientId: 'number', authorId: 'number', text: 'string', createdAt: now, updatedAt: now } },
  {
    name: 'ExternalComment',
    plural: 'externalComments',
    properties: { patientId: 'number', source: text('clinic'), author: 'string', text: 'string', createdAt: now },
  },
  {
    name: 'CostRate',
    plural: 'cost-rates',
    properties: { designation: 'string', amountEuro: 'number', unit: text('session'), createdAt: now, updatedAt: now },
  },
  { name: 'Device', properties: { name: 'string', type: text('tracker'), serialNumber: 'string', createdAt: now, updatedAt: now } },
  { name: 'Diagnosis', plural: 'diagnosis', properties: { code: 'string', label: 'string' } },
  {
    name: 'ReplicationEndpoint',
    plural: 'replicationEndpoint',
    properties: {
      name: 'string',
      protocol: 'string',
      host: { type: 'string', default: null },
      port: { type: 'number', default: null },
      path: text(),
      createdAt: now,
      updatedAt: now,
    },
  },
  {
    name: 'Survey',
    properties: {
      headline: 'string',
      description: text(),
      questions: { type: ['object'], default: [] },
      active: { type: 'boolean', default: true },
      createdAt: now,
      updatedAt: now,
    },
  },
  {
    name: 'SyncedPatient',
    plural: 'synced-patients',
    properties: {
      patientId: 'number',
      patientCode: 'string',
      lastSyncAt: 'date',
      recordCount: 'number',
      lastDayEvaluationDate: { type: 'string', default: null },
    },
  },
  { name: 'News', plural: 'news', properties: { title: 'string', body: text(), publishedAt: now } },
  { name: 'NewsRead', properties: { newsId: 'number', coachId: 'number' } },
  { name: 'PhoneCall', properties: { date: 'string', minutes: 'number' } },
  {
    name: 'TrainingMaterial',
    properties: {
      title: 'string',
      description: text(),
      category: text('manual'),
      assetId: 'number',
      fileName: 'string',
      contentType: 'string',
      size: 'number',
      updatedAt: now,
    },
  },
  // Records of the app's synchronised collections: the data fields stay at top level (strict: false), beside recordId.
  {
    name: 'SyncEntry',
    strict: false,
    properties: { patientId: 'number', collection: 'string', recordId: 'string', date: { type: 'string', default: null }, updatedAt: now },
  },
];

/** Not reachable over REST: link tables, read state and the figures behind the statistics. */
const PRIVATE = new Set(['PatientCoach', 'PatientDevice', 'NewsRead', 'PhoneCall', 'TrainingMaterial', 'SyncEntry']);
const REFERENCE_DATA = new Set(['CostRate', 'Device', 'Diagnosis', 'ReplicationEndpoint', 'Survey']);
const READ_ONLY = new Set(['ExternalComment', 'SyncedPatient']);
const WRITES = [
  'create',
  'upsert',
  'replaceOrCreate',
  'upsertWithWhere',
  'updateAll',
  'replaceById',
  'prototype.patchAttributes',
  'deleteById',
  'createChangeStream',
];

/** Creates every model on the data source `db` and returns them by name. */
export function defineModels(app: any): Record<string, any> {
  const models: Record<string, any> = {};
  for (const definition of DEFINITIONS) {
    const model = app.registry.createModel({ base: 'PersistedModel', ...definition });
    app.model(model, { dataSource: 'db', public: !PRIVATE.has(definition.name) && definition.name !== 'CoachToken' });
    model.settings.acls = REFERENCE_DATA.has(definition.name) ? REFERENCE : SIGNED_IN;
    if (READ_ONLY.has(definition.name)) for (const name of WRITES) model.disableRemoteMethodByName(name);
    // LoopBack's standard updatedAt: every save stamps it.
    if ('updatedAt' in (definition.properties ?? {})) {
      model.observe('before save', async (ctx: any) => {
        if (ctx.instance) ctx.instance.updatedAt = new Date();
        else if (ctx.data) ctx.data.updatedAt = new Date();
      });
    }
    models[definition.name] = model;
  }
  return models;
}
