import { createDiagnosis, deleteDiagnosis, listDiagnoses, updateDiagnosis } from '../../../api/diagnosis.ts';
import type { Diagnosis, DiagnosisCreate } from '../../../../contract/schemas/diagnosis.ts';
import { t } from '../../../lib/i18n.ts';
import { TextField } from '../fields.tsx';
import type { ReferenceConfig } from './ReferenceTable.tsx';
import { readAll } from '../../../data/fetch-all.ts';

interface DiagnosisForm {
  code: string;
  label: string;
}
/** ICD-10-GM: letter, two digits, optional .1-2 digits and a marker (same rule as the server). */
export const ICD10 = /^[A-Z]\d{2}(\.\d{1,2})?[-+!*#]?$/;

export const diagnosesConfig: ReferenceConfig<Diagnosis, DiagnosisForm, DiagnosisCreate> = {
  keyPrefix: 'admin.diagnoses',
  load: (signal) => readAll((range) => listDiagnoses({ order: ['code ASC', 'id ASC'], ...range }, signal), signal),
  columns: () => [
    { header: t('admin.diagnoses.code'), cell: (d) => d.code },
    { header: t('admin.diagnoses.label'), cell: (d) => d.label },
  ],
  itemName: (d) => `${d.code} ${d.label}`,
  emptyForm: () => ({ code: '', label: '' }),
  toForm: (d) => ({ code: d.code, label: d.label }),
  validate: (f) => ({
    ...(f.code.trim() === '' ? { code: 'admin.required' } : ICD10.test(f.code.trim().toUpperCase()) ? {} : { code: 'admin.diagnoses.codeInvalid' }),
    ...(f.label.trim() ? {} : { label: 'admin.required' }),
  }),
  renderFields: (f, set, errorFor) => (
    <>
      <TextField
        label={t('admin.diagnoses.code')}
        value={f.code}
        onValue={(code) => set({ code })}
        required
        error={errorFor('code')}
        hint={t('admin.diagnoses.codeHint')}
      />
      <TextField label={t('admin.diagnoses.label')} value={f.label} onValue={(label) => set({ label })} required error={errorFor('label')} />
    </>
  ),
  toBody: (f) => ({ code: f.code.trim().toUpperCase(), label: f.label.trim() }),
  create: (body) => createDiagnosis(body),
  update: (item, changes) => updateDiagnosis(item.id, changes),
  remove: (d) => deleteDiagnosis(d.id),
};
