import type { ResourceDefinition } from '../../resource/definition.ts';
import { patientScoped } from '../patients/access.ts';
import { SyncedPatientSchema } from '../../../../contract/schemas/synced-patients.ts';

/** Which patients' apps have synchronised, and how much: read only, for the coaches of each row's patient. */
export const syncedPatientsResource: ResourceDefinition = {
  path: '/synced-patients',
  table: 'synced_patients',
  fields: { id: 'string', patientId: 'string', patientCode: 'string', lastSyncAt: 'date', recordCount: 'number', lastDayEvaluationDate: 'date' },
  outputSchema: SyncedPatientSchema,
  access: patientScoped('synced_patients', 'patientId'),
  toRow: () => ({}),
  toOutput: (rows) => rows,
  defaultOrder: { field: 'lastSyncAt', direction: 'desc' },
};
