import { useEffect, useState } from 'react';
import { linkPatient } from '../../../api/coaches.ts';
import { listPatients } from '../../../api/patients.ts';
import { listCount, listPage, type ListCount } from '../../../data/paging.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { errorText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { formatCount } from '../../../components/list-count.ts';
import { t } from '../../../lib/i18n.ts';
import { FormDialog } from '../FormDialog.tsx';
import { coachName, patientListName } from '../../../lib/names.ts';

const RESULTS = 20;
const NONE: ListCount = { count: 0, exact: true };

/** The where-filter for a search: every word must match code, first or last name. */
export function patientSearchWhere(query: string): Record<string, unknown> | undefined {
  const words = query
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[%_]/g, ''))
    .filter(Boolean);
  if (words.length === 0) return undefined;
  const parts = words.map((w) => ({ or: [{ patientCode: { like: `%${w}%` } }, { firstName: { like: `%${w}%` } }, { lastName: { like: `%${w}%` } }] }));
  return parts.length === 1 ? parts[0] : { and: parts };
}

/** The patients a search finds, a quarter second after the last keystroke, at most RESULTS of them. */
function usePatientChoices(query: string) {
  const [results, setResults] = useState<{ status: 'idle' | 'loading' | 'ready' | 'error'; items: Patient[]; total: ListCount; error?: unknown }>({
    status: 'idle',
    items: [],
    total: NONE,
  });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: searches again when the query or the retry attempt changes, nothing else
  useEffect(() => {
    const where = patientSearchWhere(query);
    if (!where) {
      setResults({ status: 'idle', items: [], total: NONE });
      return;
    }
    const controller = new AbortController();
    // A short pause so each keystroke does not start a request.
    const timer = setTimeout(() => {
      setResults((r) => ({ ...r, status: 'loading' }));
      listPage((range) => listPatients({ where, order: ['lastName ASC', 'id ASC'], ...range }, controller.signal), RESULTS).then(
        ({ data, total }) => setResults({ status: 'ready', items: data, total: listCount(total, data.length) }),
        (failure: unknown) => {
          if (!controller.signal.aborted) setResults({ status: 'error', items: [], total: NONE, error: failure });
        },
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, attempt]);
  return { results, retry: () => setAttempt((n) => n + 1) };
}

/** Search a patient by code or name and link them to the coach. */
export function LinkPatientDialog({ coach, onLinked, onClose }: { coach: Coach; onLinked: (message: string) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const { results, retry } = usePatientChoices(query);
  const [chosen, setChosen] = useState<string | null>(null);
  const { busy, error, run, fail } = useMutation((failure) => `${t('admin.link.failed')} ${errorText(failure)}`);

  const submit = async () => {
    const patient = results.items.find((p) => p.id === chosen);
    if (!patient) {
      fail(t('admin.link.choose'));
      return;
    }
    await run(async () => {
      await linkPatient(coach.id, patient.id);
      onLinked(t('admin.link.done', { patient: patient.patientCode, coach: coachName(coach) }));
    });
  };

  return (
    <FormDialog
      title={t('admin.link.title', { name: coachName(coach) })}
      submitLabel={t('admin.link.submit')}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <label>
        {t('admin.link.search')}
        <input type="search" value={query} autoComplete="off" onInput={(e) => setQuery(e.currentTarget.value)} aria-describedby="admin-link-status" />
      </label>
      <div id="admin-link-status" aria-live="polite" className="field-hint">
        {results.status === 'idle' && t('admin.link.hint')}
        {results.status === 'loading' && t('admin.link.searching')}
        {results.status === 'ready' && results.items.length === 0 && t('admin.link.none')}
        {results.status === 'ready' &&
          (!results.total.exact || results.total.count > results.items.length) &&
          t('admin.link.more', { n: results.items.length, total: formatCount(results.total) })}
      </div>
      {results.status === 'error' && (
        <p role="alert" className="form-error">
          {errorText(results.error)}{' '}
          <button type="button" className="secondary outline" onClick={retry}>
            {t('admin.retry')}
          </button>
        </p>
      )}
      {results.items.length > 0 && (
        <fieldset className="admin-choices">
          <legend>{t('admin.link.results')}</legend>
          {results.items.map((p) => (
            <label key={p.id}>
              <input type="radio" name="link-patient" value={p.id} checked={chosen === p.id} onChange={() => setChosen(p.id)} />
              {p.patientCode} · {patientListName(p)}
            </label>
          ))}
        </fieldset>
      )}
    </FormDialog>
  );
}
