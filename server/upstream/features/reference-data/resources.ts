import { Router } from 'express';
import { plain, stamps } from '../../resource/rows.ts';
import type { Upstream } from '../../context.ts';
import { resourceRoutes, type ResourceDefinition } from '../../resource/resource-routes.ts';
import { patientScoped, referenceData } from '../patients/access.ts';
import { canAccessPatient, isAdmin, patientAccessCondition } from '../../http/auth.ts';
import { validationFailed } from '../../http/errors.ts';
import { commentsResource } from '../comments/resource.ts';
import { patientsResource } from '../patients/resource.ts';

export { patientsResource };
import { generateCode, CODE_VALID_DAYS, latestExpiry } from '../../lib/codes.ts';
import type { PatientTokenTable, SurveyTable } from '../../db/types.ts';
import { ExternalCommentSchema } from '../../../../contract/schemas/external-comments.ts';
import { CostRateCreateSchema, CostRatePatchSchema, CostRateSchema, CostRateUpdateSchema } from '../../../../contract/schemas/cost-rates.ts';
import { DeviceCreateSchema, DevicePatchSchema, DeviceSchema, DeviceUpdateSchema } from '../../../../contract/schemas/devices.ts';
import { DiagnosisCreateSchema, DiagnosisPatchSchema, DiagnosisSchema, DiagnosisUpdateSchema } from '../../../../contract/schemas/diagnosis.ts';
import { PatientTokenCreateSchema, PatientTokenPatchSchema, PatientTokenSchema, PatientTokenUpdateSchema } from '../../../../contract/schemas/patient-tokens.ts';
import {
  ReplicationEndpointCreateSchema,
  ReplicationEndpointPatchSchema,
  ReplicationEndpointSchema,
  ReplicationEndpointUpdateSchema,
} from '../../../../contract/schemas/replication-endpoints.ts';
import { SurveyCreateSchema, SurveyPatchSchema, SurveySchema, SurveyUpdateSchema } from '../../../../contract/schemas/surveys.ts';
import { SyncedPatientSchema } from '../../../../contract/schemas/synced-patients.ts';

const asIs = (rows: unknown[]) => rows;

/** A list the API only reads, for the coaches of each row's patient (docs/product.md#calls: read-only resources). */
const readOnly = (
  path: string,
  table: ResourceDefinition['table'],
  fields: ResourceDefinition['fields'],
  outputSchema: ResourceDefinition['outputSchema'],
  newest: string,
): ResourceDefinition => ({
  path,
  table,
  fields,
  outputSchema,
  access: patientScoped(table, 'patientId'),
  toRow: () => ({}),
  toOutput: asIs,
  defaultOrder: { field: newest, direction: 'desc' },
});

const externalCommentsResource = readOnly(
  '/externalComments',
  'external_comments',
  { id: 'string', patientId: 'string', source: 'string', author: 'string', text: 'string', createdAt: 'date' },
  ExternalCommentSchema,
  'createdAt',
);
const syncedPatientsResource = readOnly(
  '/synced-patients',
  'synced_patients',
  { id: 'string', patientId: 'string', patientCode: 'string', lastSyncAt: 'date', recordCount: 'number', lastDayEvaluationDate: 'date' },
  SyncedPatientSchema,
  'lastSyncAt',
);

type Schemas = Pick<ResourceDefinition, 'createSchema' | 'updateSchema' | 'patchSchema' | 'outputSchema'>;
/** Reference data administrators keep (docs/product.md#calls: standard resources), stored as it is sent. */
const reference = (
  path: string,
  table: ResourceDefinition['table'],
  fields: ResourceDefinition['fields'],
  schemas: Schemas,
  extra: Partial<ResourceDefinition> = {},
): ResourceDefinition => ({
  path,
  table,
  fields,
  ...schemas,
  access: referenceData,
  toRow: plain(),
  toOutput: asIs,
  defaultOrder: { field: 'name', direction: 'asc' },
  ...extra,
});

const costRatesResource = reference(
  '/cost-rates',
  'cost_rates',
  { id: 'string', name: 'string', amountCents: 'number', unit: 'string', ...stamps },
  { createSchema: CostRateCreateSchema, updateSchema: CostRateUpdateSchema, patchSchema: CostRatePatchSchema, outputSchema: CostRateSchema },
);
const devicesResource = reference(
  '/devices',
  'devices',
  { id: 'string', name: 'string', type: 'string', serialNumber: 'string', ...stamps },
  { createSchema: DeviceCreateSchema, updateSchema: DeviceUpdateSchema, patchSchema: DevicePatchSchema, outputSchema: DeviceSchema },
  { audit: { entity: 'device', patientIdOf: () => null }, uniqueField: 'serialNumber' },
);
const diagnosisResource = reference(
  '/diagnosis',
  'diagnoses',
  { id: 'string', code: 'string', label: 'string' },
  { createSchema: DiagnosisCreateSchema, updateSchema: DiagnosisUpdateSchema, patchSchema: DiagnosisPatchSchema, outputSchema: DiagnosisSchema },
  { uniqueField: 'code', defaultOrder: { field: 'code', direction: 'asc' } },
);
const replicationEndpointResource = reference(
  '/replicationEndpoint',
  'replication_endpoints',
  { id: 'string', name: 'string', protocol: 'string', host: 'string', port: 'number', path: 'string', ...stamps },
  {
    createSchema: ReplicationEndpointCreateSchema,
    updateSchema: ReplicationEndpointUpdateSchema,
    patchSchema: ReplicationEndpointPatchSchema,
    outputSchema: ReplicationEndpointSchema,
  },
);

const surveysResource: ResourceDefinition = {
  path: '/surveys',
  table: 'surveys',
  fields: { id: 'string', title: 'string', description: 'string', questions: 'json', active: 'boolean', ...stamps },
  createSchema: SurveyCreateSchema,
  updateSchema: SurveyUpdateSchema,
  patchSchema: SurveyPatchSchema,
  outputSchema: SurveySchema,
  access: referenceData,
  toRow: (input) => {
    const row = plain(['questions'])(input);
    if (typeof input.active === 'boolean') row.active = input.active ? 1 : 0;
    return row;
  },
  toOutput: (rows) => (rows as unknown as SurveyTable[]).map((r) => ({ ...r, questions: JSON.parse(r.questions), active: r.active === 1 })),
  defaultOrder: { field: 'title', direction: 'asc' },
};

/** Access codes: visible to the coach they were made for and to every coach of their patient. */
const patientTokensResource: ResourceDefinition = {
  path: '/patientTokens',
  table: 'patient_tokens',
  fields: { id: 'string', code: 'string', coachId: 'string', patientId: 'string', expiresAt: 'date', usedAt: 'date', createdAt: 'date', label: 'string' },
  createSchema: PatientTokenCreateSchema,
  updateSchema: PatientTokenUpdateSchema,
  patchSchema: PatientTokenPatchSchema,
  outputSchema: PatientTokenSchema,
  access: {
    scopeList(_ctx, coach, query) {
      if (isAdmin(coach)) return query;
      return query.where((eb) => eb.or([eb('patient_tokens.coachId', '=', coach.id), patientAccessCondition(eb, coach.id, 'patient_tokens.patientId')]));
    },
    async canRead(ctx, coach, row) {
      if (isAdmin(coach) || row.coachId === coach.id) return true;
      return row.patientId ? canAccessPatient(ctx.db, coach, String(row.patientId)) : false;
    },
    async canWrite(ctx, coach, row) {
      if (isAdmin(coach)) return true;
      // A coach makes codes for themselves only, and only for their own patients.
      if (row.coachId !== coach.id) return false;
      return row.patientId ? canAccessPatient(ctx.db, coach, String(row.patientId)) : true;
    },
  },
  async toRow(input, { ctx, coach, existing, now }) {
    const row: Record<string, unknown> = { ...input };
    if (!existing) {
      row.coachId ??= coach.id;
      row.code = generateCode();
      row.expiresAt = new Date(Date.parse(now) + CODE_VALID_DAYS * 86400_000).toISOString();
      row.usedAt = null;
    } else if (typeof row.expiresAt === 'string' && row.expiresAt > latestExpiry(String(existing.createdAt))) {
      // A code may be shortened or revoked, never stretched: 90 days after it was made, whatever a write says.
      throw validationFailed([
        { path: 'expiresAt', message: `At most ${CODE_VALID_DAYS} days after the code was created (${latestExpiry(String(existing.createdAt))})` },
      ]);
    }
    if (row.coachId !== undefined) {
      const target = await ctx.db.selectFrom('coaches').select('id').where('id', '=', String(row.coachId)).executeTakeFirst();
      if (!target) throw validationFailed([{ path: 'coachId', message: 'Unknown coach' }]);
    }
    if (row.patientId) {
      const patient = await ctx.db.selectFrom('patients').select('id').where('id', '=', String(row.patientId)).executeTakeFirst();
      if (!patient) throw validationFailed([{ path: 'patientId', message: 'Unknown patient' }]);
    }
    return row;
  },
  toOutput: (rows) => rows as unknown as PatientTokenTable[],
  audit: { entity: 'patient-token', patientIdOf: (row) => (row.patientId as string | null) ?? null },
  uniqueField: 'code',
  defaultOrder: { field: 'createdAt', direction: 'desc' },
};

export const standardResources = [
  patientsResource,
  commentsResource,
  externalCommentsResource,
  syncedPatientsResource,
  costRatesResource,
  devicesResource,
  diagnosisResource,
  replicationEndpointResource,
  surveysResource,
  patientTokensResource,
];

/** The standard create/read/update/delete resources of docs/product.md#calls plus the two read-only ones. */
export function resourceFamilies(ctx: Upstream): Router {
  const router = Router();
  for (const def of standardResources) router.use(resourceRoutes(ctx, def));
  return router;
}
