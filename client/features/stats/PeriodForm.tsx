import { useEffect, useState } from 'react';
import type { Coach } from '../../api/schemas/coaches.ts';
import { t } from '../../lib/i18n.ts';
import { lastDays, periodError, type Period } from './period.ts';
import { CoachOptions } from '../../components/CoachOptions.tsx';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';

interface Props {
  period: Period;
  coaches: Coach[];
  onChange: (period: Period) => void;
}

const PRESETS = [30, 90, 365] as const;

/** Choose the period: two dates, applied together, or a preset. */
export function PeriodForm({ period, coaches, onChange }: Props) {
  const [draft, setDraft] = useState(period);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the draft follows the applied period's values, not the identity of its object
  useEffect(() => setDraft(period), [period.from, period.to, period.coachId]);
  const problem = periodError(draft);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!problem) onChange(draft);
  };
  return (
    <form className="period-form" onSubmit={submit} noValidate aria-label={t('stats.periodLabel')}>
      <DateRangeFields
        from={draft.from}
        to={draft.to}
        labels={[t('stats.from'), t('stats.to')]}
        invalid={!!problem}
        onChange={(next) => setDraft({ ...draft, ...next })}
      />
      {coaches.length > 0 && (
        <label>
          {t('stats.coach')}
          <select value={draft.coachId ?? ''} onInput={(e) => setDraft({ ...draft, coachId: e.currentTarget.value || undefined })}>
            <option value="">{t('stats.coachAll')}</option>
            <CoachOptions coaches={coaches} />
          </select>
        </label>
      )}
      <button type="submit" disabled={!!problem}>
        {t('stats.apply')}
      </button>
      <div className="period-presets">
        <span className="period-presets-label">{t('stats.presetsLabel')}</span>
        {PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            className="secondary outline"
            onClick={() => onChange({ ...lastDays(days), ...(draft.coachId ? { coachId: draft.coachId } : {}) })}
          >
            {t('stats.lastDays', { n: days })}
          </button>
        ))}
      </div>
      {problem && (
        <p role="alert" className="form-error period-error">
          {t(problem)}
        </p>
      )}
    </form>
  );
}
