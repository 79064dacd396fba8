import type { SurveyTable } from '../../db/types.ts';
import type { ResourceDefinition } from '../../resource/definition.ts';
import { plain, stamps } from '../../resource/rows.ts';
import { referenceData } from './rules.ts';
import { CostRateCreateSchema, CostRatePatchSchema, CostRateSchema, CostRateUpdateSchema } from '../../../../contract/schemas/cost-rates.ts';
import { DeviceCreateSchema, DevicePatchSchema, DeviceSchema, DeviceUpdateSchema } from '../../../../contract/schemas/devices.ts';
import { DiagnosisCreateSchema, DiagnosisPatchSchema, DiagnosisSchema, DiagnosisUpdateSchema } from '../../../../contract/schemas/diagnosis.ts';
import {
  ReplicationEndpointCreateSchema,
  ReplicationEndpointPatchSchema,
  ReplicationEndpointSchema,
  ReplicationEndpointUpdateSchema,
} from '../../../../contract/schemas/replication-endpoints.ts';
import { SurveyCreateSchema, SurveyPatchSchema, SurveySchema, SurveyUpdateSchema } from '../../../../contract/schemas/surveys.ts';

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
  toOutput: (rows) => rows,
  defaultOrder: { field: 'name', direction: 'asc' },
  ...extra,
});

export const costRatesResource = reference(
  '/cost-rates',
  'cost_rates',
  { id: 'string', name: 'string', amountCents: 'number', unit: 'string', ...stamps },
  { createSchema: CostRateCreateSchema, updateSchema: CostRateUpdateSchema, patchSchema: CostRatePatchSchema, outputSchema: CostRateSchema },
);
export const devicesResource = reference(
  '/devices',
  'devices',
  { id: 'string', name: 'string', type: 'string', serialNumber: 'string', ...stamps },
  { createSchema: DeviceCreateSchema, updateSchema: DeviceUpdateSchema, patchSchema: DevicePatchSchema, outputSchema: DeviceSchema },
  { audit: { entity: 'device', patientIdOf: () => null }, uniqueField: 'serialNumber' },
);
export const diagnosisResource = reference(
  '/diagnosis',
  'diagnoses',
  { id: 'string', code: 'string', label: 'string' },
  { createSchema: DiagnosisCreateSchema, updateSchema: DiagnosisUpdateSchema, patchSchema: DiagnosisPatchSchema, outputSchema: DiagnosisSchema },
  { uniqueField: 'code', defaultOrder: { field: 'code', direction: 'asc' } },
);
export const replicationEndpointResource = reference(
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

export const surveysResource: ResourceDefinition = {
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
