import type * as v from 'valibot';
import * as appSettings from './schemas/app-settings.ts';
import * as auditLog from './schemas/audit-log.ts';
import * as auth from './schemas/auth.ts';
import * as coaches from './schemas/coaches.ts';
import * as comments from './schemas/comments.ts';
import * as common from './schemas/common.ts';
import * as costRates from './schemas/cost-rates.ts';
import * as devices from './schemas/devices.ts';
import * as diagnosis from './schemas/diagnosis.ts';
import * as error from './schemas/error.ts';
import * as externalComments from './schemas/external-comments.ts';
import * as news from './schemas/news.ts';
import * as patientTokens from './schemas/patient-tokens.ts';
import * as patients from './schemas/patients.ts';
import * as puks from './schemas/puks.ts';
import * as replicationEndpoints from './schemas/replication-endpoints.ts';
import * as statistics from './schemas/statistics.ts';
import * as surveys from './schemas/surveys.ts';
import * as syncDb from './schemas/sync-db.ts';
import * as syncedPatients from './schemas/synced-patients.ts';
import * as system from './schemas/system.ts';

const MODULES: Record<string, unknown>[] = [
  appSettings,
  auditLog,
  auth,
  coaches,
  comments,
  common,
  costRates,
  devices,
  diagnosis,
  error,
  externalComments,
  news,
  patientTokens,
  patients,
  puks,
  replicationEndpoints,
  statistics,
  surveys,
  syncDb,
  syncedPatients,
  system,
];

const isSchema = (value: unknown): value is v.GenericSchema =>
  !!value && typeof value === 'object' && 'kind' in value && (value as { kind: unknown }).kind === 'schema';

/**
 * Every shape of the contract by its name (`Patient` for PatientSchema), as docs/api.md and the catalogue name them:
 * the gateway's field mapping names shapes this way.
 */
export const SHAPES: ReadonlyMap<string, v.GenericSchema> = new Map(
  MODULES.flatMap((module) =>
    Object.entries(module)
      .filter(([name, value]) => name.endsWith('Schema') && isSchema(value))
      .map(([name, value]) => [name.slice(0, -'Schema'.length), value as v.GenericSchema] as const),
  ),
);
