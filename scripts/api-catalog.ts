/**
 * Every /v2 call of docs/product.md#calls with who may make it and the shapes it takes and answers.
 * Shapes are named after their valibot schema in client/api/schemas/ without the `Schema` suffix
 * (`Patient` = PatientSchema); `X[]` is a JSON array of X. scripts/api-docs.ts renders docs/api.md
 * from this list and the schemas, and test/server/upstream/api-docs.test.ts checks that every call
 * exists in the built-in upstream.
 */

export type Permission =
  | 'public' | 'signed-in' | 'reset-link' | 'admin' | 'self-or-admin' | 'health-manager-or-admin'
  | 'linked-coach-or-admin' | 'primary-coach-or-admin' | 'author-or-admin' | 'reference-data' | 'patient-history';

export const PERMISSIONS: Record<Permission, string> = {
  'public': 'No token needed.',
  'signed-in': 'Any signed-in coach (valid token, account not locked).',
  'reset-link': 'The one-time token from the emailed reset link (30 minutes, single use) as bearer token.',
  'admin': 'Administrators (isAdmin or isSuperAdmin).',
  'self-or-admin': 'The coach named in the path, or an administrator.',
  'health-manager-or-admin': 'Health managers (isHealthManager) and administrators.',
  'linked-coach-or-admin': 'The patient\'s primary coach, a coach linked to the patient (patient coaches), or an administrator. Lists contain only such patients\' rows.',
  'primary-coach-or-admin': 'The patient\'s primary coach or an administrator (a coach only linked to the patient gets 403): who is responsible for a patient, who is in its care team and whether it is deleted.',
  'author-or-admin': 'Reading as linked-coach-or-admin; changing or deleting only by the comment\'s author or an administrator. A deleted comment is kept: coaches no longer see it, administrators read it by id and in lists whose filter names deletedAt.',
  'patient-history': 'Administrators: every entry. Other coaches: the history of one patient they may open (linked-coach-or-admin), named by `where.patientId` (without it 403); entries of comments deleted since are left out.',
  'reference-data': 'Every signed-in coach reads; administrators create, change and delete.',
};

export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  permission: Permission;
  summary: string;
  /** Shape of the query values (each JSON-encoded), e.g. 'ListFilter' for `filter`. */
  query?: string;
  body?: string;
  /** Shape of a JSON answer, 'file' for a download, undefined for 204 No Content. */
  answer?: string;
  /** Success status when not 200 (JSON) or 204 (no answer). */
  status?: number;
  /** Not in docs/product.md#calls: only the built-in upstream has it, and the client hides what needs it when it is missing. */
  optional?: true;
}

const crud = (path: string, shape: string, plural: string, permission: Permission, what: string): ApiCall[] => [
  { method: 'POST', path, permission, summary: `Create ${what}.`, body: `${shape}Create`, answer: shape, status: 201 },
  { method: 'GET', path, permission, summary: `List ${plural}; X-Total-Count has the number of matches.`, query: 'filter: ListFilter', answer: `${shape}[]` },
  { method: 'GET', path: `${path}/{id}`, permission, summary: `One ${what}.`, answer: shape },
  { method: 'PUT', path: `${path}/{id}`, permission, summary: `Replace ${what}.`, body: `${shape}Update`, answer: shape },
  { method: 'PATCH', path: `${path}/{id}`, permission, summary: `Change some fields of ${what}.`, body: `${shape}Patch`, answer: shape },
  { method: 'DELETE', path: `${path}/{id}`, permission, summary: `Delete ${what}.` },
];
const readOnly = (path: string, shape: string, plural: string, permission: Permission, what: string): ApiCall[] => [
  { method: 'GET', path, permission, summary: `List ${plural}; X-Total-Count has the number of matches.`, query: 'filter: ListFilter', answer: `${shape}[]` },
  { method: 'GET', path: `${path}/{id}`, permission, summary: `One ${what}.`, answer: shape },
];
const stats = (path: string, answer: string, summary: string, query = 'StatisticsQuery'): ApiCall =>
  ({ method: 'GET', path: `/statistics/${path}`, permission: 'health-manager-or-admin', summary, query, answer });

const sync = '/patients/{patientId}/sync-db/{collection}';

export const API_FAMILIES: { name: string; intro: string; calls: ApiCall[] }[] = [
  {
    name: 'Authentication',
    intro: 'docs/contract.md#shapes pins these. Rate limits (429 with Retry-After; RATE_LIMIT_* settings): login, forgot-password and set-password per IP address; password checks (login and update-password together) per account and address, counted before the password is checked (a right password gives its point back), plus a per-account ceiling for addresses the account has not signed in from within two weeks, so guesses from many addresses slow down while the owner is never locked out from their own; reset mails per address; set-password per account. With PostgreSQL every upstream process counts in the same table.',
    calls: [
      { method: 'POST', path: '/auth/login', permission: 'public', summary: 'Sign in. 401 for wrong credentials, 403 for a locked account.', body: 'LoginBody', answer: 'LoginResponse' },
      { method: 'POST', path: '/auth/logout', permission: 'signed-in', summary: 'Revoke the token of this request.' },
      { method: 'GET', path: '/auth/me', permission: 'signed-in', summary: 'The signed-in coach.', answer: 'Me' },
      { method: 'PATCH', path: '/auth/me/update-password', permission: 'signed-in', summary: 'Change the own password; 400 when oldPassword is wrong; wrong old passwords count like wrong logins (429).', body: 'UpdatePasswordBody' },
      { method: 'POST', path: '/auth/me/set-password', permission: 'reset-link', summary: 'Set a new password from the emailed link; 401 when the link is expired or used.', body: 'SetPasswordBody' },
      { method: 'POST', path: '/auth/forgot-password', permission: 'public', summary: 'Mail a reset link. Always 204: never tells whether the account exists.', body: 'ForgotPasswordBody' },
    ],
  },
  {
    name: 'App settings',
    intro: 'What the patient app and the portal show about the service, the product version and its files.',
    calls: [
      { method: 'GET', path: '/app-settings', permission: 'signed-in', summary: 'App name, support contact, links and the list of assets.', answer: 'AppSettings' },
      { method: 'GET', path: '/app-settings/version', permission: 'signed-in', summary: 'Product name and version from package.json.', answer: 'AppVersion' },
      { method: 'GET', path: '/app-settings/asset/{id}', permission: 'public', summary: 'The file itself with its own Content-Type (image/png, application/pdf); 404 for an unknown id. Public so that links and images work without a bearer header; assets hold no patient data.', answer: 'file' },
    ],
  },
  {
    name: 'Coaches',
    intro: 'Coach accounts. A coach may change their own profile (not their flags) with PUT/PATCH; everything else about other coaches is for administrators. PUT, PATCH and DELETE of a coach take If-Match (see Versions).',
    calls: [
      ...crud('/coaches', 'Coach', 'coaches (every coach sees the team)', 'admin', 'a coach').map((call) =>
        call.method === 'GET' ? { ...call, permission: 'signed-in' as const }
          : call.method === 'PUT' || call.method === 'PATCH' ? { ...call, permission: 'self-or-admin' as const }
            : call.method === 'DELETE' ? { ...call, summary: 'Delete a coach; 409 for the own account.' } : call),
      { method: 'POST', path: '/coaches/connect', permission: 'primary-coach-or-admin', summary: 'Join the care team of the patient with this pseudonym code. A pseudonym code is printed and listed, so it is no credential: only an administrator (or the primary coach, for whom nothing changes) may connect; every other caller gets the same 403 whether or not the code exists. Every attempt counts against a per-coach limit (429), successful ones included. 404 for an unknown code (administrators).', body: 'CoachConnect', answer: 'Patient' },
      { method: 'GET', path: '/coaches/isCoachLocked', permission: 'signed-in', summary: 'Whether the calling coach is locked.', answer: 'CoachLocked' },
      { method: 'POST', path: '/coaches/createPatientForMedian', permission: 'signed-in', summary: 'Create a patient referred by a MEDIAN clinic together with an access code.', body: 'PatientCreate', answer: 'PatientAccess', status: 201 },
      { method: 'GET', path: '/coaches/create-trial-access', permission: 'signed-in', summary: 'A 14-day trial patient with an access code, linked to the caller.', answer: 'PatientAccess', status: 201 },
      { method: 'POST', path: '/coaches/{id}/send-verification-email', permission: 'self-or-admin', summary: 'Mail an email-verification link (7 days); 409 when already verified.' },
      { method: 'GET', path: '/coaches/{id}/verify-email', permission: 'public', summary: 'Opened from the mail: marks the address verified (a browser is redirected to /login); 400 for an invalid or expired token.', query: 'VerifyEmailQuery' },
      { method: 'POST', path: '/coaches/{id}/reset-password', permission: 'self-or-admin', summary: 'Mail the coach a reset link; 409 for a locked account.' },
      { method: 'GET', path: '/coaches/{id}/patients', permission: 'self-or-admin', summary: 'The coach\'s patients (primary or linked); X-Total-Count.', query: 'filter: ListFilter', answer: 'Patient[]' },
      { method: 'POST', path: '/coaches/{id}/create-patient-token', permission: 'self-or-admin', summary: 'A new access code for this coach, optionally for one of their patients.', body: 'CreatePatientToken', answer: 'PatientToken', status: 201 },
      { method: 'POST', path: '/coaches/{id}/link-patient/{patientId}', permission: 'primary-coach-or-admin', summary: 'Add the coach to the patient\'s care team.' },
    ],
  },
  {
    name: 'Patients',
    intro: 'Patients in aftercare. Any coach may create one (and becomes its primary coach unless another is named). Coaches of the care team may change master data; only the primary coach or an administrator may change primaryCoachId (403 PRIMARY_COACH_REQUIRED) or delete the patient. PUT, PATCH and DELETE take If-Match (see Versions); PATCH stores only the fields it names.',
    calls: crud('/patients', 'Patient', 'patients', 'linked-coach-or-admin', 'a patient').map((call) =>
      call.method === 'DELETE' ? { ...call, permission: 'primary-coach-or-admin' as const } : call),
  },
  { name: 'Patient tokens (access codes)', intro: 'Codes made to be read out on the phone: no look-alike characters, blocks of four, a check character, 90 days, single use. A coach makes codes for themselves and their own patients. A write may shorten a code\'s life, never extend it: expiresAt later than 90 days after createdAt is a 422.', calls: crud('/patientTokens', 'PatientToken', 'access codes', 'linked-coach-or-admin', 'an access code') },
  { name: 'Comments', intro: 'Coaches\' notes on a patient. PUT, PATCH and DELETE take If-Match (see Versions); every version of a note stays in the audit log. DELETE keeps the note with deletedAt and deletedBy: it is gone for coaches (404, left out of lists) and for writes; administrators read it by id, and list deleted notes with a filter that names deletedAt, e.g. `{ "where": { "patientId": "…", "deletedAt": { "neq": null } } }`.', calls: crud('/comments', 'Comment', 'comments', 'author-or-admin', 'a comment') },
  { name: 'External comments', intro: 'Read only: notes from the clinic, the patient app or therapists.', calls: readOnly('/externalComments', 'ExternalComment', 'external comments', 'linked-coach-or-admin', 'external comment') },
  { name: 'Cost rates', intro: 'Billing rates, reference data.', calls: crud('/cost-rates', 'CostRate', 'cost rates', 'reference-data', 'a cost rate') },
  { name: 'Devices', intro: 'Devices lent to patients, reference data.', calls: crud('/devices', 'Device', 'devices', 'reference-data', 'a device') },
  { name: 'Diagnoses', intro: 'ICD-10-GM diagnoses, reference data.', calls: crud('/diagnosis', 'Diagnosis', 'diagnoses', 'reference-data', 'a diagnosis') },
  { name: 'Replication endpoints', intro: 'Where patient apps replicate to. The client shows one as "product | endpoint name" and builds its URL from protocol, host and port, the current host when host is omitted (client/api/replication.ts).', calls: crud('/replicationEndpoint', 'ReplicationEndpoint', 'replication endpoints', 'reference-data', 'a replication endpoint') },
  { name: 'Surveys', intro: 'Questionnaires for the patient app, reference data.', calls: crud('/surveys', 'Survey', 'surveys', 'reference-data', 'a survey') },
  { name: 'Synced patients', intro: 'Read only: the sync state of each patient whose app has synchronised.', calls: readOnly('/synced-patients', 'SyncedPatient', 'synced patients', 'linked-coach-or-admin', 'patient\'s sync state (id = patient id)') },
  {
    name: 'News',
    intro: 'Read state is per coach and item.',
    calls: [
      { method: 'GET', path: '/news', permission: 'signed-in', summary: 'Published news, newest first, `read` for the calling coach.', answer: 'NewsItem[]' },
      { method: 'POST', path: '/news/{id}/read/{coachId}', permission: 'self-or-admin', summary: 'Mark read for the coach (idempotent); 404 for unknown or unpublished news.' },
      { method: 'POST', path: '/news/{id}/unread/{coachId}', permission: 'self-or-admin', summary: 'Mark unread for the coach (idempotent).' },
    ],
  },
  {
    name: 'Statistics',
    intro: 'Computed from stored data: aftercare intervals and held phone-coaching events (sync collection `event`, type phone-coaching, done). Days are German calendar days (Europe/Berlin). 400 for unknown query values, from after to, or a period over 731 days. Only aggregates and pseudonyms leave for patients the caller may not open: detail rows carry id, code and name only for administrators and the patient\'s own coaches.',
    calls: [
      stats('patient-statistics', 'PatientStatistics', 'Patients by aftercare status on day `to`, flows within the period.'),
      stats('patient-detail-statistics', 'PatientDetailStatisticsRow[]', 'One row per patient in aftercare during the period; paged, X-Total-Count has all rows.', 'DetailStatisticsQuery'),
      stats('daily-patients-in-aftercare', 'DailyPatients', 'Patients in aftercare on each day of the period.'),
      stats('phone-coachings', 'PhoneCoachings', 'Held phone coachings and their minutes on each day of the period.'),
    ],
  },
  {
    name: 'System',
    intro: 'Instance settings and documents for coaches.',
    calls: [
      { method: 'GET', path: '/system/settings', permission: 'signed-in', summary: 'Instance settings.', answer: 'SystemSettings' },
      { method: 'GET', path: '/system/training-materials', permission: 'signed-in', summary: 'Documents for coaches; download each from /app-settings/asset/{assetId}.', answer: 'TrainingMaterial[]' },
    ],
  },
  {
    name: 'Patient extras',
    intro: 'Everything about one patient. 404 for an unknown patient, 403 for a coach who is not linked. Linking calls are idempotent.',
    calls: [
      { method: 'GET', path: '/patients/{id}/primary-coach', permission: 'linked-coach-or-admin', summary: 'Contact card of the responsible coach, null when unassigned.', answer: 'PrimaryCoach' },
      { method: 'GET', path: '/patients/{id}/token/get-or-create-unused', permission: 'linked-coach-or-admin', summary: 'The newest unused, unexpired access code (200), or a new one (201).', answer: 'PatientToken' },
      { method: 'GET', path: '/patients/{id}/puks', permission: 'linked-coach-or-admin', summary: 'Recovery keys, newest first.', answer: 'Puk[]' },
      { method: 'POST', path: '/patients/{id}/puks', permission: 'linked-coach-or-admin', summary: 'Create a recovery key.', body: 'PukCreate', answer: 'Puk', status: 201 },
      { method: 'GET', path: '/patients/{id}/coaches', permission: 'linked-coach-or-admin', summary: 'Coaches linked to the patient (the care team besides the primary coach).', answer: 'Coach[]' },
      { method: 'POST', path: '/patients/{id}/coaches/{coachId}', permission: 'primary-coach-or-admin', summary: 'Link a coach; 404 for an unknown coach.' },
      { method: 'DELETE', path: '/patients/{id}/coaches/{coachId}', permission: 'primary-coach-or-admin', summary: 'Unlink a coach; a linked coach may also remove themselves.' },
      { method: 'GET', path: '/patients/{id}/devices', permission: 'linked-coach-or-admin', summary: 'Devices lent to the patient.', answer: 'Device[]' },
      { method: 'POST', path: '/patients/{id}/devices/{deviceId}', permission: 'linked-coach-or-admin', summary: 'Link a device; 404 for an unknown device.' },
      { method: 'DELETE', path: '/patients/{id}/devices/{deviceId}', permission: 'linked-coach-or-admin', summary: 'Unlink a device.' },
      { method: 'PUT', path: '/patients/{id}/appointments', permission: 'linked-coach-or-admin', summary: 'Replace the appointment list (ids unique); answers it sorted by start. Versioned with the patient: If-Match with the patient\'s version (ETag or updatedAt); the answer\'s ETag is the patient\'s new version; 412 carries the current list.', body: 'AppointmentsUpdate', answer: 'Appointment[]' },
      { method: 'GET', path: '/patients/{id}/evaluation-form', permission: 'linked-coach-or-admin', summary: 'The closing assessment; empty fields before the first save. ETag once saved.', answer: 'EvaluationForm' },
      { method: 'PUT', path: '/patients/{id}/evaluation-form', permission: 'linked-coach-or-admin', summary: 'Save the closing assessment; If-Match with its version (see Versions).', body: 'EvaluationFormUpdate', answer: 'EvaluationForm' },
    ],
  },
  {
    name: 'Synchronised collections',
    intro: '`{collection}` is one of day-evaluation, day-stats, event, event-template, form, internal, life-section, settings, survey, survey-result, timeframe, timeframe-evaluation (404 otherwise). `data` has the shape of the collection (see SyncCollectionData below). Writes to the collections the app fills (day-evaluation, day-stats, form, internal, life-section, settings, survey-result, timeframe-evaluation) move the patient\'s lastDataAt and sync state.',
    calls: [
      { method: 'GET', path: sync, permission: 'linked-coach-or-admin', summary: 'Records; `where`/`order` on id, date, updatedAt; default order date, id; at most 1000 per page; X-Total-Count.', query: 'filter: ListFilter', answer: 'SyncRecord[]' },
      { method: 'PUT', path: sync, permission: 'linked-coach-or-admin', summary: 'Create or replace the record with body.id; 422 naming the field when data does not fit the collection.', body: 'SyncUpsert', answer: 'SyncRecord' },
      { method: 'GET', path: `${sync}/{id}`, permission: 'linked-coach-or-admin', summary: 'One record.', answer: 'SyncRecord' },
      { method: 'DELETE', path: `${sync}/{id}`, permission: 'linked-coach-or-admin', summary: 'Delete a record; 404 when it does not exist.' },
    ],
  },
  {
    name: 'Audit log',
    intro: 'Not in docs/product.md: the built-in upstream records every change to patients (master data, appointments, evaluation form), comments, care-team and device links, devices, access codes, recovery keys and coaches, in the same transaction as the change. Password hashes, access codes and recovery keys appear only as "[redacted]".',
    calls: [
      { method: 'GET', path: '/audit-log', optional: true, permission: 'patient-history', summary: 'Changes, newest first (default 100 per page); `where`/`order` on id, at, actorId, action, entity, entityId, patientId: `{ "where": { "patientId": "…" } }` is one patient\'s history, `{ "where": { "entity": "comment", "entityId": "…" } }` every version of one note. X-Total-Count.', query: 'filter: ListFilter', answer: 'AuditEntry[]' },
    ],
  },
];
