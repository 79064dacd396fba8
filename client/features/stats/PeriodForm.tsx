import { useEffect, useState } from 'react';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import { t } from '../../lib/i18n.ts';
import { periodError, type Period } from '../../lib/period.ts';
import { CALENDAR_RANGES, calendarRange, calendarRangeOf, type CalendarRange } from '../../lib/period-ranges.ts';
import { CoachOptions } from '../../components/CoachOptions.tsx';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';

interface Props {
  period: Period;
  /** The calendar range the period was chosen as, if any. */
  range: CalendarRange | null;
  today: string;
  coaches: Coach[];
  /** A calendar range comes with its name; two dates typed in are a free range (null). */
  onChange: (period: Period, range: CalendarRange | null) => void;
}

/** Choose the period: a calendar range in one click, or two dates (and a coach) applied together. */
export function PeriodForm({ period, range, today, coaches, onChange }: Props) {
  const [draft, setDraft] = useState(period);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the draft follows the applied period's values, not the identity of its object
  useEffect(() => setDraft(period), [period.from, period.to, period.coachId]);
  const problem = periodError(draft);
  const chosen = range ?? calendarRangeOf(period, today);
  const coach = draft.coachId ? { coachId: draft.coachId } : {};

  const submit = (event: Event) => {
    event.preventDefault();
    // Only a new coach keeps the chosen range; changed dates make a free range.
    if (!problem) onChange(draft, draft.from === period.from && draft.to === period.to ? range : null);
  };
  return (
    <form className="period-form" onSubmit={submit} noValidate aria-label={t('stats.periodLabel')}>
      <div className="period-presets" role="group" aria-labelledby="period-presets-label">
        <span className="period-presets-label" id="period-presets-label">
          {t('stats.presetsLabel')}
        </span>
        {CALENDAR_RANGES.map((name) => (
          <button
            key={name}
            type="button"
            className={name === chosen ? undefined : 'secondary outline'}
            aria-pressed={name === chosen}
            onClick={() => onChange({ ...calendarRange(name, today), ...coach }, name)}
          >
            {t(`stats.range.${name}`)}
          </button>
        ))}
      </div>
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
      {problem && (
        <p role="alert" className="form-error period-error">
          {t(problem)}
        </p>
      )}
    </form>
  );
}
