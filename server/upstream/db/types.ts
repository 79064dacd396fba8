import type { Generated } from 'kysely';

/**
 * Table shapes as stored. Booleans are stored as 0/1 integers and timestamps as ISO 8601 text in every
 * dialect, so the same queries run on SQLite and (later) PostgreSQL. Ids are strings.
 * Route families may add their own tables here (one small edit) or by module augmentation:
 *   declare module './types.ts' { interface Database { news: NewsTable } }
 */
export interface Database {
  coaches: CoachTable;
  access_tokens: AccessTokenTable;
  patients: PatientTable;
  patient_coaches: PatientCoachTable;
  comments: CommentTable;
  external_comments: ExternalCommentTable;
  cost_rates: CostRateTable;
  devices: DeviceTable;
  diagnoses: DiagnosisTable;
  patient_tokens: PatientTokenTable;
  replication_endpoints: ReplicationEndpointTable;
  surveys: SurveyTable;
  synced_patients: SyncedPatientTable;
  audit_log: AuditLogTable;
  aftercare_day_counts: AftercareDayCountTable;
  recent_data_day_counts: AftercareDayCountTable;
  patient_figure_totals: PatientFigureTotalTable;
  patient_trigram_order: PatientTrigramOrderTable;
}

export type Flag = 0 | 1;

/** Per trigram of a patient's name and code keys, the patient in the name order, kept by triggers (migration 129). */
export interface PatientTrigramOrderTable {
  trigram: string;
  lastNameKey: string;
  firstNameKey: string;
  id: string;
}

/** Per patient, what its records add to the statistics' figures over all days, kept by triggers (migration 126). */
export interface PatientFigureTotalTable {
  patientId: string;
  statisticsRowId: string | null;
  dayEvaluations: number;
  calls: number;
  callMinutes: number;
}

/**
 * Intervals starting and ending per day, per scope ('*' or 'coach:<id>'), kept by triggers: aftercare intervals
 * (aftercare_day_counts, migration 120) and the days a patient counts as active with recent data
 * (recent_data_day_counts, migration 122).
 */
export interface AftercareDayCountTable {
  scope: string;
  day: string;
  starts: number;
  ends: number;
}
// Columns added by later migrations are optional here (`?`): inserts that do not name them store null.

export interface CoachTable {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  phone: string;
  passwordHash: string | null;
  isAdmin: Flag;
  isSuperAdmin: Flag;
  isHealthManager: Flag;
  isUserLocked: Flag;
  emailVerified: Flag;
  language: string;
  trialEndsAt: string | null;
  /** A new address waiting for the confirmation link mailed to it (migration 109); null when none. */
  pendingEmail?: string | null;
  createdAt: string;
  updatedAt: string;
  /** Sort and search keys (lib/sort-key.ts), written by db/sort-key-plugin.ts. */
  firstNameKey?: string | null;
  lastNameKey?: string | null;
}

/** Bearer tokens. `id` is the SHA-256 of the token: the token itself is never stored. */
export interface AccessTokenTable {
  id: string;
  coachId: string;
  /** 'access' (login), 'reset' (emailed set-password link, single use), 'verify' (email verification). */
  kind: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  /** Login tokens: the last request made with it, written at most once a minute (lib/session-use.ts). */
  lastUsedAt: string | null;
  /** The address a mailed link (reset, verify) went to: it works only while the account has that address. */
  sentTo?: string | null;
}

// Created by migration 002; columns follow contract/schemas/*.ts. JSON lists are stored as text.
export interface PatientTable {
  id: string;
  patientCode: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  gender: string;
  email: string | null;
  phone: string | null;
  clinic: string;
  aftercareStart: string;
  aftercareEnd: string;
  primaryCoachId: string | null;
  /** JSON array of diagnosis ids. */
  diagnosisIds: string;
  costRateId: string | null;
  /** JSON array of appointments (PUT /patients/{id}/appointments). */
  appointments: string;
  lastDataAt: string | null;
  /** Left out of "Brauchen Aufmerksamkeit" until this day (YYYY-MM-DD), set from the worklist; null when not set. */
  followUpAt?: string | null;
  createdAt: string;
  updatedAt: string;
  /** Sort and search keys (lib/sort-key.ts), written by db/sort-key-plugin.ts whenever the name or phone is. */
  firstNameKey?: string | null;
  lastNameKey?: string | null;
  phoneKey?: string | null;
  firstNameSpelledKey?: string | null;
  lastNameSpelledKey?: string | null;
  patientCodeKey?: string | null;
  /** The statistics detail table's pseudonym (migration 120), filled by the statistics calls. */
  statisticsRowId?: string | null;
}
export interface PatientCoachTable {
  patientId: string;
  coachId: string;
  createdAt: string;
  /** Copies of the patient's name keys, kept by triggers (migration 134): the caseload's name order. */
  lastNameKey: Generated<string | null>;
  firstNameKey: Generated<string | null>;
}
export interface CommentTable {
  id: string;
  patientId: string;
  authorId: string | null;
  text: string;
  createdAt: string;
  updatedAt: string;
  /** Soft deletion (migration 107): when and by whom; null while the comment is live. */
  deletedAt?: string | null;
  deletedBy?: string | null;
}
export interface ExternalCommentTable {
  id: string;
  patientId: string;
  source: string;
  author: string;
  text: string;
  createdAt: string;
}
export interface CostRateTable {
  id: string;
  name: string;
  amountCents: number;
  unit: string;
  createdAt: string;
  updatedAt: string;
}
export interface DeviceTable {
  id: string;
  name: string;
  type: string;
  serialNumber: string;
  createdAt: string;
  updatedAt: string;
}
export interface DiagnosisTable {
  id: string;
  code: string;
  label: string;
}
export interface PatientTokenTable {
  id: string;
  code: string;
  coachId: string;
  patientId: string | null;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
  label: string | null;
}
export interface ReplicationEndpointTable {
  id: string;
  name: string;
  protocol: string;
  host: string | null;
  port: number | null;
  path: string;
  createdAt: string;
  updatedAt: string;
}
export interface SurveyTable {
  id: string;
  title: string;
  description: string;
  /** JSON array of questions. */
  questions: string;
  active: Flag;
  createdAt: string;
  updatedAt: string;
}
/** Sync state per patient; the sync-db routes keep it (and patients.lastDataAt) current. */
export interface SyncedPatientTable {
  id: string;
  patientId: string;
  patientCode: string;
  lastSyncAt: string;
  recordCount: number;
  lastDayEvaluationDate: string | null;
}

/**
 * One change to a patient, comment, link, device, access code, recovery key, evaluation form or coach
 * (migration 105). `changes` is JSON { field: { before, after } }; secrets appear only as "[redacted]".
 */
export interface AuditLogTable {
  id: string;
  at: string;
  /** The coach who made the change; null for the system (seed, first administrator). */
  actorId: string | null;
  action: 'create' | 'update' | 'delete';
  entity: string;
  entityId: string;
  /** The patient the record belongs to, so a patient's whole history is one indexed query. */
  patientId: string | null;
  changes: string;
}

// Kept so that tables with database-generated keys can be typed later without a new import.
export type { Generated };
