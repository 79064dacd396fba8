import type { Coach } from '../../../contract/schemas/coaches.ts';
import { t } from '../../lib/i18n.ts';
import { USES_COACH, USES_PERIOD, USES_STATUS, type ExportFilter, type ExportKind } from './exports.ts';
import { filterError } from './filter.ts';
import { coachListName } from '../../lib/names.ts';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';

interface Props {
  kinds: ExportKind[];
  kind: ExportKind;
  filter: ExportFilter;
  coaches: Coach[];
  coachesFailed: boolean;
  disabled: boolean;
  onKind: (kind: ExportKind) => void;
  onFilter: (filter: ExportFilter) => void;
  onStart: () => void;
}

/** What to export and which rows: the filters shown depend on the kind. */
export function ExportForm({ kinds, kind, filter, coaches, coachesFailed, disabled, onKind, onFilter, onStart }: Props) {
  const problem = filterError(kind, filter);
  const set = (patch: Partial<ExportFilter>) => onFilter({ ...filter, ...patch });
  return (
    <form
      className="export-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onStart();
      }}
    >
      <fieldset disabled={disabled}>
        <legend>{t('export.kindLegend')}</legend>
        <div className="export-kinds">
          {kinds.map((k) => (
            <label key={k} className={k === kind ? 'export-kind export-kind-selected' : 'export-kind'}>
              <input type="radio" name="export-kind" value={k} checked={k === kind} onChange={() => onKind(k)} />
              <span>
                <strong>{t(`export.kind.${k}.title`)}</strong>
                <small>{t(`export.kind.${k}.description`)}</small>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset disabled={disabled} className="export-filters">
        <legend>{t('export.filterLegend')}</legend>
        {USES_PERIOD[kind] && (
          <div className="grid">
            <DateRangeFields from={filter.from} to={filter.to} labels={[t('export.from'), t('export.to')]} invalid={!!problem} onChange={set} />
          </div>
        )}
        {(USES_STATUS[kind] || USES_COACH[kind]) && (
          <div className="grid">
            {USES_STATUS[kind] && (
              <label>
                {t('export.statusLabel')}
                <select value={filter.status} onInput={(e) => set({ status: e.currentTarget.value as ExportFilter['status'] })}>
                  <option value="all">{t('export.statusAll')}</option>
                  <option value="active">{t('export.status.active')}</option>
                  <option value="planned">{t('export.status.planned')}</option>
                  <option value="completed">{t('export.status.completed')}</option>
                </select>
              </label>
            )}
            {USES_COACH[kind] && (
              <label>
                {t('export.coach')}
                <select value={filter.coachId} onInput={(e) => set({ coachId: e.currentTarget.value })}>
                  <option value="">{t('export.coachAll')}</option>
                  {coaches.map((c) => (
                    <option key={c.id} value={c.id}>
                      {coachListName(c)}
                    </option>
                  ))}
                </select>
                {coachesFailed && <small>{t('export.coachesFailed')}</small>}
              </label>
            )}
          </div>
        )}
        {problem && (
          <p role="alert" className="form-error">
            {t(problem)}
          </p>
        )}
      </fieldset>
      <button type="submit" disabled={disabled || !!problem}>
        {t('export.start')}
      </button>
    </form>
  );
}
