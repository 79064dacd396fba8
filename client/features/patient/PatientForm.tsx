import { useState } from 'react';
import { ApiError } from '../../data/http.ts';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import type { CostRate } from '../../../contract/schemas/cost-rates.ts';
import type { Diagnosis } from '../../../contract/schemas/diagnosis.ts';
import type { Patient, PatientUpdate } from '../../../contract/schemas/patients.ts';
import { errorText, saveFailureText } from '../../components/errorText.ts';
import { useMutation } from '../../data/useMutation.ts';
import { exceptConflicts } from '../../data/useForm.ts';
import type { ReactNode } from 'react';
import { t } from '../../lib/i18n.ts';
import { CoachOptions } from '../../components/CoachOptions.tsx';

export interface PatientFormValues {
  firstName: string;
  lastName: string;
  birthDate: string;
  gender: 'female' | 'male' | 'diverse' | 'unknown';
  email: string;
  phone: string;
  clinic: string;
  aftercareStart: string;
  aftercareEnd: string;
  primaryCoachId: string;
  diagnosisIds: string[];
  costRateId: string;
}

export function valuesOf(patient?: Patient | null): PatientFormValues {
  return {
    firstName: patient?.firstName ?? '',
    lastName: patient?.lastName ?? '',
    birthDate: patient?.birthDate ?? '',
    gender: patient?.gender ?? 'unknown',
    email: patient?.email ?? '',
    phone: patient?.phone ?? '',
    clinic: patient?.clinic ?? '',
    aftercareStart: patient?.aftercareStart ?? '',
    aftercareEnd: patient?.aftercareEnd ?? '',
    primaryCoachId: patient?.primaryCoachId ?? '',
    diagnosisIds: patient?.diagnosisIds ?? [],
    costRateId: patient?.costRateId ?? '',
  };
}

export function toBody(values: PatientFormValues): PatientUpdate {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    birthDate: values.birthDate,
    gender: values.gender,
    email: values.email.trim() || null,
    phone: values.phone.trim() || null,
    clinic: values.clinic.trim(),
    aftercareStart: values.aftercareStart,
    aftercareEnd: values.aftercareEnd,
    primaryCoachId: values.primaryCoachId || null,
    diagnosisIds: values.diagnosisIds,
    costRateId: values.costRateId || null,
  };
}

type Errors = Partial<Record<keyof PatientFormValues, string>>;

/** Checks done before sending, with messages in the coach's language. */
export function validate(values: PatientFormValues): Errors {
  const errors: Errors = {};
  if (!values.firstName.trim()) errors.firstName = t('patient.form.required');
  if (!values.lastName.trim()) errors.lastName = t('patient.form.required');
  if (!values.birthDate) errors.birthDate = t('patient.form.required');
  if (values.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) errors.email = t('patient.form.invalidEmail');
  if (!values.aftercareStart) errors.aftercareStart = t('patient.form.required');
  if (!values.aftercareEnd) errors.aftercareEnd = t('patient.form.required');
  if (values.aftercareStart && values.aftercareEnd && values.aftercareEnd < values.aftercareStart) {
    errors.aftercareEnd = t('patient.form.endBeforeStart');
  }
  return errors;
}

interface Props {
  initial: PatientFormValues;
  submitLabel: string;
  /** Resolves when saved; a rejection keeps every field as typed and shows the reason. */
  onSubmit: (values: PatientFormValues) => Promise<void>;
  onCancel?: () => void;
  coaches: Coach[];
  diagnoses: Diagnosis[];
  costRates: CostRate[];
  /** Shown above the buttons, e.g. the ConflictNotice after a concurrent change. */
  notice?: ReactNode;
  /** Every change, so the caller can keep a draft of it. */
  onChange?: (values: PatientFormValues) => void;
  /** Offer the choice of the primary coach (creating: administrators only, the server puts others' patients into their own caseload). */
  chooseCoach?: boolean;
  /** What a failed save says after "not saved"; the general sentence for a failed call unless the caller knows better. */
  describeError?: (failure: unknown) => string;
}

/** The server's field errors (400/422 details), at the fields this form has. */
function serverErrors(failure: unknown, values: PatientFormValues): Errors {
  const errors: Errors = {};
  if (!(failure instanceof ApiError)) return errors;
  for (const d of failure.details) {
    const field = d.path.split('.')[0] as keyof PatientFormValues;
    if (field in values) errors[field] = t('patient.form.serverInvalid');
  }
  return errors;
}

/** Master data form for creating and editing a patient. */
export function PatientForm(props: Props) {
  const { initial, submitLabel, onSubmit, onCancel, coaches, diagnoses, costRates, notice, onChange } = props;
  const { chooseCoach = true, describeError = errorText } = props;
  const [values, setValues] = useState(initial);
  const [checked, setChecked] = useState<Errors>({});
  // A concurrent change is shown by the caller's notice, with the other version; the typed values stay.
  const { busy: saving, error: failure, run, clear } = useMutation(exceptConflicts);
  // What the last check found, and where the server refused a value (400/422 details) after the last save.
  const errors: Errors = { ...checked, ...serverErrors(failure, values) };
  const set = <K extends keyof PatientFormValues>(key: K, value: PatientFormValues[K]) => {
    const next = { ...values, [key]: value };
    setValues(next);
    onChange?.(next);
  };

  async function submit(e: Event) {
    e.preventDefault();
    const found = validate(values);
    setChecked(found);
    clear();
    if (Object.keys(found).length) {
      document.getElementById(`pf-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    await run(() => onSubmit(values));
  }

  const field = (key: keyof PatientFormValues, type: InputProps['type'] = 'text', extra: Record<string, unknown> = {}) => (
    <PatientInput name={key} type={type} value={values[key] as string} error={errors[key]} onValue={(value) => set(key, value as never)} extra={extra} />
  );

  return (
    <form className="patient-form" onSubmit={submit} noValidate>
      <fieldset className="grid-form">
        <legend>{t('patient.form.person')}</legend>
        {field('firstName', 'text', { autoComplete: 'off', required: true })}
        {field('lastName', 'text', { autoComplete: 'off', required: true })}
        {field('birthDate', 'date', { required: true })}
        <label htmlFor="pf-gender">
          {t('patient.fields.gender')}
          <select id="pf-gender" value={values.gender} onChange={(e) => set('gender', (e.target as HTMLSelectElement).value as PatientFormValues['gender'])}>
            {(['female', 'male', 'diverse', 'unknown'] as const).map((g) => (
              <option key={g} value={g}>
                {t(`patient.gender.${g}`)}
              </option>
            ))}
          </select>
        </label>
        {field('email', 'email', { autoComplete: 'off' })}
        {field('phone', 'tel', { autoComplete: 'off' })}
      </fieldset>
      <fieldset className="grid-form">
        <legend>{t('patient.form.aftercare')}</legend>
        {field('clinic')}
        {field('aftercareStart', 'date', { required: true })}
        {field('aftercareEnd', 'date', { required: true })}
        <AftercareChoices values={values} set={set} coaches={chooseCoach ? coaches : []} costRates={costRates} />
      </fieldset>
      <DiagnosisPicker diagnoses={diagnoses} chosen={values.diagnosisIds} onChange={(ids) => set('diagnosisIds', ids)} />
      {failure !== null && (
        <p role="alert" className="inline-error">
          {saveFailureText(t('patient.form.saveFailed'), failure, describeError)}
        </p>
      )}
      {notice}
      <div className="form-actions">
        <button type="submit" disabled={saving} aria-busy={saving}>
          {saving ? t('patient.form.saving') : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary outline" onClick={onCancel} disabled={saving}>
            {t('patient.form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

interface ChoicesProps {
  values: PatientFormValues;
  set: <K extends keyof PatientFormValues>(key: K, value: PatientFormValues[K]) => void;
  /** Empty: the form offers no choice of coach. */
  coaches: Coach[];
  costRates: CostRate[];
}

/** The primary coach (where the form offers it) and the cost rate. */
function AftercareChoices({ values, set, coaches, costRates }: ChoicesProps) {
  return (
    <>
      {coaches.length > 0 && (
        <label htmlFor="pf-primaryCoachId">
          {t('patient.fields.primaryCoachId')}
          <select id="pf-primaryCoachId" value={values.primaryCoachId} onChange={(e) => set('primaryCoachId', (e.target as HTMLSelectElement).value)}>
            <option value="">{t('patient.form.noCoach')}</option>
            <CoachOptions coaches={coaches} />
          </select>
        </label>
      )}
      <label htmlFor="pf-costRateId">
        {t('patient.fields.costRateId')}
        <select id="pf-costRateId" value={values.costRateId} onChange={(e) => set('costRateId', (e.target as HTMLSelectElement).value)}>
          <option value="">{t('patient.form.noCostRate')}</option>
          {costRates.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** The diagnoses to tick, each with its code. */
function DiagnosisPicker({ diagnoses, chosen, onChange }: { diagnoses: Diagnosis[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  if (diagnoses.length === 0) return null;
  return (
    <fieldset className="diagnosis-picker">
      <legend>{t('patient.fields.diagnosisIds')}</legend>
      {diagnoses.map((d) => (
        <label key={d.id}>
          <input
            type="checkbox"
            checked={chosen.includes(d.id)}
            onChange={(e) => {
              const on = (e.target as HTMLInputElement).checked;
              onChange(on ? [...chosen, d.id] : chosen.filter((x) => x !== d.id));
            }}
          />
          <code>{d.code}</code> {d.label}
        </label>
      ))}
    </fieldset>
  );
}

interface InputProps {
  name: keyof PatientFormValues;
  type: 'text' | 'date' | 'email' | 'tel';
  value: string;
  error: string | undefined;
  onValue: (value: string) => void;
  /** Further attributes (autoComplete, required). */
  extra: Record<string, unknown>;
}

/** One labelled field of the form, its message beside it. */
function PatientInput({ name, type, value, error, onValue, extra }: InputProps) {
  return (
    <label htmlFor={`pf-${name}`}>
      {t(`patient.fields.${name}`)}
      <input
        id={`pf-${name}`}
        type={type as 'text'}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `pf-${name}-error` : undefined}
        onInput={(e) => onValue((e.target as HTMLInputElement).value)}
        {...extra}
      />
      {error && <small id={`pf-${name}-error`}>{error}</small>}
    </label>
  );
}
