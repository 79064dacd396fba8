import type { Flag } from './types.ts';

/*
 * Tables of the route families news, system, app-settings, patient extras and sync-db
 * (migrations 100-103), added to the Database interface by module augmentation.
 */

export interface NewsTable {
  id: string;
  title: string;
  body: string;
  /** Not listed before this time. */
  publishedAt: string;
  createdAt: string;
}

/** A row means: this coach has read this news item. Unread = no row. */
export interface NewsReadTable {
  newsId: string;
  coachId: string;
  readAt: string;
}

/** Key-value settings; `value` is JSON text. Keys: enable_creating_new_patients, instance_name, app. */
export interface SettingTable {
  key: string;
  value: string;
}

export interface TrainingMaterialTable {
  id: string;
  title: string;
  description: string;
  category: string;
  /** Id of a file in server/upstream/assets/ (see assets/index.ts). */
  assetId: string;
  position: number;
  updatedAt: string;
}

export interface PukTable {
  id: string;
  patientId: string;
  code: string;
  createdAt: string;
  usedAt: string | null;
}

export interface PatientDeviceTable {
  patientId: string;
  deviceId: string;
  createdAt: string;
}

export interface EvaluationFormTable {
  patientId: string;
  goalAttainment: number | null;
  workAbility: string | null;
  returnToWorkDate: string | null;
  followUpRecommended: Flag;
  summary: string;
  updatedBy: string | null;
  updatedAt: string;
}

/**
 * Every record of the 12 synchronised collections. `data` is the JSON of the collection's data schema.
 * date/type/done/minutes are copied out of data at every upsert so statistics and filters run as plain,
 * dialect-neutral SQL (no JSON functions).
 */
export interface SyncRecordTable {
  patientId: string;
  collection: string;
  id: string;
  /** Day the record belongs to (see syncRecordSchema in contract/schemas/sync-db.ts). */
  date: string | null;
  /** data.type for events and event templates. */
  type: string | null;
  /** data.done for events (0/1). */
  done: Flag | null;
  /** data.durationMinutes for events. */
  minutes: number | null;
  data: string;
  updatedAt: string;
}

declare module './types.ts' {
  interface Database {
    news: NewsTable;
    news_reads: NewsReadTable;
    settings: SettingTable;
    training_materials: TrainingMaterialTable;
    puks: PukTable;
    patient_devices: PatientDeviceTable;
    evaluation_forms: EvaluationFormTable;
    sync_records: SyncRecordTable;
  }
}
