import { type ApiFamily, crud, readOnly } from './catalog-kinds.ts';

/** The families of the catalogue about people and their access: sign-in, settings, coaches, patients, reference data. */
export const PEOPLE_FAMILIES: ApiFamily[] = [
  {
    name: 'Authentication',
    intro:
      "docs/contract.md#shapes pins these. A new password (set-password, update-password, POST /coaches) is refused with 400 PASSWORD_TOO_COMMON when it is a common password or word (also without trailing digits and marks), or one keyboard walk, sequence or repeat, and with 400 PASSWORD_CONTAINS_PERSONAL_DATA when it contains the email's local part or the first or last name; details[0].path names the field. Rate limits (429 with Retry-After; RATE_LIMIT_* settings): login, forgot-password and set-password per IP address; password checks (login and update-password together) per account and address, counted before the password is checked (a right password gives its point back), plus a per-account ceiling for addresses the account has not signed in from within two weeks, so guesses from many addresses slow down while the owner is never locked out from their own; reset mails per address; set-password per account. With PostgreSQL every upstream process counts in the same table. A login token ends SESSION_IDLE_MINUTES after its last use (401 SESSION_IDLE) and SESSION_MAX_HOURS after sign-in (401 SESSION_EXPIRED); a password change ends the other tokens of the account, a reset all of them (docs/contract.md#sessions).",
    calls: [
      {
        method: 'POST',
        path: '/auth/login',
        permission: 'public',
        summary: 'Sign in. 401 for wrong credentials, 403 for a locked account.',
        body: 'LoginBody',
        answer: 'LoginResponse',
      },
      { method: 'POST', path: '/auth/logout', permission: 'signed-in', summary: 'Revoke the token of this request.' },
      {
        method: 'POST',
        path: '/auth/me/end-other-sessions',
        permission: 'signed-in',
        summary: "Revoke every login token of the caller except the one of this request (the coach's other browsers and devices).",
      },
      { method: 'GET', path: '/auth/me', permission: 'signed-in', summary: 'The signed-in coach.', answer: 'Me' },
      {
        method: 'PATCH',
        path: '/auth/me/update-password',
        permission: 'signed-in',
        summary: 'Change the own password; 400 when oldPassword is wrong; wrong old passwords count like wrong logins (429).',
        body: 'UpdatePasswordBody',
      },
      {
        method: 'POST',
        path: '/auth/me/set-password',
        permission: 'reset-link',
        summary: 'Set a new password from the emailed link; 401 when the link is expired or used.',
        body: 'SetPasswordBody',
      },
      {
        method: 'POST',
        path: '/auth/forgot-password',
        permission: 'public',
        summary:
          'Mail a reset link (a new one ends the older ones). Always 204, answered before the address is looked up: neither the answer nor its timing tells whether the account exists.',
        body: 'ForgotPasswordBody',
      },
    ],
  },
  {
    name: 'App settings',
    intro: 'What the patient app and the portal show about the service, the product version and its files.',
    calls: [
      {
        method: 'GET',
        path: '/app-settings',
        permission: 'signed-in',
        summary: 'App name, support contact, links and the list of assets.',
        answer: 'AppSettings',
      },
      { method: 'GET', path: '/app-settings/version', permission: 'signed-in', summary: 'Product name and version from package.json.', answer: 'AppVersion' },
      {
        method: 'GET',
        path: '/app-settings/asset/{id}',
        permission: 'public',
        summary:
          'The file itself with its own Content-Type (image/png, application/pdf); 404 for an unknown id. Public so that links and images work without a bearer header; assets hold no patient data.',
        answer: 'file',
      },
    ],
  },
  {
    name: 'Coaches',
    intro:
      'Coach accounts. A coach may change their own profile (not their flags) with PUT/PATCH; everything else about other coaches is for administrators, and about administrators for super administrators. A different email is not stored at once: it waits in pendingEmail, a confirmation link goes to the new address and a notice to the old one; opening the link makes it the address and ends every session and link of the account. Locking or deleting a coach ends every session and mailed link of the account; unlocking revives none. PUT, PATCH and DELETE of a coach take If-Match (see Versions).',
    calls: [
      ...crud('/coaches', 'Coach', 'coaches (every coach sees the team)', 'admin', 'a coach').map((call) =>
        call.method === 'GET'
          ? { ...call, permission: 'signed-in' as const }
          : call.method === 'PUT' || call.method === 'PATCH'
            ? { ...call, permission: 'manage-coach' as const }
            : call.method === 'DELETE'
              ? { ...call, permission: 'manage-coach' as const, summary: 'Delete a coach; 409 for the own account.' }
              : call,
      ),
      {
        method: 'POST',
        path: '/coaches/connect',
        permission: 'primary-coach-or-admin',
        summary:
          'Join the care team of the patient with this pseudonym code. A pseudonym code is printed and listed, so it is no credential: only an administrator (or the primary coach, for whom nothing changes) may connect; every other caller gets the same 403 whether or not the code exists. Every attempt counts against a per-coach limit (429), successful ones included. 404 for an unknown code (administrators).',
        body: 'CoachConnect',
        answer: 'Patient',
      },
      { method: 'GET', path: '/coaches/isCoachLocked', permission: 'signed-in', summary: 'Whether the calling coach is locked.', answer: 'CoachLocked' },
      {
        method: 'POST',
        path: '/coaches/createPatientForMedian',
        permission: 'signed-in',
        summary:
          'Create a patient referred by a MEDIAN clinic together with an access code. A coach who is not an administrator creates into their own caseload (primaryCoachId = the caller, whatever the body names). Counts against RATE_LIMIT_PATIENTS_PER_COACH (429).',
        body: 'PatientCreate',
        answer: 'PatientAccess',
        status: 201,
      },
      {
        method: 'GET',
        path: '/coaches/create-trial-access',
        permission: 'signed-in',
        summary:
          'A 14-day trial patient with an access code, linked to the caller. Counts against RATE_LIMIT_PATIENTS_PER_COACH like every creation of a patient (429).',
        answer: 'PatientAccess',
        status: 201,
      },
      {
        method: 'POST',
        path: '/coaches/{id}/send-verification-email',
        permission: 'manage-coach',
        summary: 'Mail an email-verification link (7 days) to the pending new address, else to the address; 409 when that is verified already.',
      },
      {
        method: 'GET',
        path: '/coaches/{id}/verify-email',
        permission: 'public',
        summary:
          "Opened from the mail: marks the address verified, or makes the pending new address the account's one and ends every session (a browser is redirected to /login); 400 for an invalid or expired token, or one sent to an address the account no longer has or awaits.",
        query: 'VerifyEmailQuery',
      },
      {
        method: 'POST',
        path: '/coaches/{id}/reset-password',
        permission: 'manage-coach',
        summary: 'Mail the coach a reset link (a new one ends the older ones); 409 for a locked account.',
      },
      {
        method: 'POST',
        path: '/coaches/{id}/end-sessions',
        permission: 'manage-coach',
        summary: "End every login of the coach; the caller's own current one stays when it is the caller's account.",
      },
      {
        method: 'GET',
        path: '/coaches/{id}/patients',
        permission: 'self-or-admin',
        summary: "The coach's patients (primary or linked); X-Total-Count.",
        query: 'filter: ListFilter',
        answer: 'Patient[]',
      },
      {
        method: 'POST',
        path: '/coaches/{id}/create-patient-token',
        permission: 'self-or-admin',
        summary: 'A new access code for this coach, optionally for one of their patients.',
        body: 'CreatePatientToken',
        answer: 'PatientToken',
        status: 201,
      },
      {
        method: 'POST',
        path: '/coaches/{id}/link-patient/{patientId}',
        permission: 'primary-coach-or-admin',
        summary: "Add the coach to the patient's care team.",
      },
    ],
  },
  {
    name: 'Patients',
    intro:
      'Patients in aftercare. Any coach may create one, into their own caseload: the creator is its primary coach, whatever the body names, unless an administrator creates it (then the coach named, or none on purpose). Every coach may create RATE_LIMIT_PATIENTS_PER_COACH patients per rate-limit window (POST /patients, createPatientForMedian and create-trial-access together; 429 RATE_LIMITED with Retry-After beyond). Coaches of the care team may change master data; only the primary coach or an administrator may change primaryCoachId (403 PRIMARY_COACH_REQUIRED) or delete the patient. PUT, PATCH and DELETE take If-Match (see Versions); PATCH stores only the fields it names.',
    calls: crud('/patients', 'Patient', 'patients', 'linked-coach-or-admin', 'a patient').map((call) =>
      call.method === 'DELETE' ? { ...call, permission: 'primary-coach-or-admin' as const } : call,
    ),
  },
  {
    name: 'Patient tokens (access codes)',
    intro:
      "Codes made to be read out on the phone: no look-alike characters, blocks of four, a check character, 90 days, single use. A coach makes codes for themselves and their own patients. A write may shorten a code's life, never extend it: expiresAt later than 90 days after createdAt is a 422.",
    calls: crud('/patientTokens', 'PatientToken', 'access codes', 'linked-coach-or-admin', 'an access code'),
  },
  {
    name: 'Comments',
    intro:
      'Coaches\' notes on a patient. PUT, PATCH and DELETE take If-Match (see Versions); every version of a note stays in the audit log. DELETE keeps the note with deletedAt and deletedBy: it is gone for coaches (404, left out of lists) and for writes; administrators read it by id, and list deleted notes with a filter that names deletedAt, e.g. `{ "where": { "patientId": "…", "deletedAt": { "neq": null } } }`.',
    calls: crud('/comments', 'Comment', 'comments', 'author-or-admin', 'a comment'),
  },
  {
    name: 'External comments',
    intro: 'Read only: notes from the clinic, the patient app or therapists.',
    calls: readOnly('/externalComments', 'ExternalComment', 'external comments', 'linked-coach-or-admin', 'external comment'),
  },
  { name: 'Cost rates', intro: 'Billing rates, reference data.', calls: crud('/cost-rates', 'CostRate', 'cost rates', 'reference-data', 'a cost rate') },
  { name: 'Devices', intro: 'Devices lent to patients, reference data.', calls: crud('/devices', 'Device', 'devices', 'reference-data', 'a device') },
  { name: 'Diagnoses', intro: 'ICD-10-GM diagnoses, reference data.', calls: crud('/diagnosis', 'Diagnosis', 'diagnoses', 'reference-data', 'a diagnosis') },
  {
    name: 'Replication endpoints',
    intro:
      'Where patient apps replicate to. The client shows one as "product | endpoint name" and builds its URL from protocol, host and port, the current host when host is omitted (client/api/replication.ts).',
    calls: crud('/replicationEndpoint', 'ReplicationEndpoint', 'replication endpoints', 'reference-data', 'a replication endpoint'),
  },
  { name: 'Surveys', intro: 'Questionnaires for the patient app, reference data.', calls: crud('/surveys', 'Survey', 'surveys', 'reference-data', 'a survey') },
  {
    name: 'Synced patients',
    intro: 'Read only: the sync state of each patient whose app has synchronised.',
    calls: readOnly('/synced-patients', 'SyncedPatient', 'synced patients', 'linked-coach-or-admin', "patient's sync state (id = patient id)"),
  },
];
