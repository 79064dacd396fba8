import { useEffect, useRef, useState } from 'react';
import { listCoaches } from '../../api/coaches.ts';
import { errorText } from '../../components/errorText.ts';
import { useQuery } from '../../data/useQuery.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { formatNumber, t } from '../../lib/i18n.ts';
import { ExportForm } from './ExportForm.tsx';
import { buildExport, type ExportFilter, type ExportKind } from './exports.ts';
import { exportKinds } from '../../domain/permissions.ts';
import { user } from '../../state/session.ts';
import { ListCancelled, type Progress } from '../../data/fetch-all.ts';
import { defaultFilter, filterError, localToday } from './filter.ts';
import './export.css';
import { readAll } from '../../data/fetch-all.ts';

/** An export is a run of many pages with progress and a cancel button, so it keeps its own phases (not useMutation). */
type RunState =
  | { phase: 'idle' }
  | { phase: 'running'; step: string; progress: Progress }
  | { phase: 'done'; rows: number; fileName: string; url: string }
  | { phase: 'cancelled' }
  | { phase: 'failed'; message: string };

/** CSV exports for German Excel, covering every row of the chosen filter, fetched page by page. */
export default function ExportPage() {
  const [kind, setKind] = useState<ExportKind>('patients');
  const [filter, setFilter] = useState<ExportFilter>(() => defaultFilter());
  const { run, start, cancel, running, statusRef } = useExportRun();
  const coaches = useQuery((signal) => readAll((range) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], ...range }, signal), signal), 'coaches');
  const startChosen = () => (filterError(kind, filter) ? undefined : start(kind, filter));
  // The one rule for "may export" (domain/permissions.ts), as the sidebar and the coach guide use it.
  const kinds = exportKinds(user.value);
  if (kinds.length === 0) {
    return (
      <section className="export-page">
        <h1>{t('export.title')}</h1>
        <p role="status">{t('export.notAllowed')}</p>
      </section>
    );
  }

  return (
    <section className="export-page">
      <h1>{t('export.title')}</h1>
      <p>{t('export.intro')}</p>
      <ExportForm
        kinds={kinds}
        kind={kind}
        filter={filter}
        coaches={coaches.data ?? []}
        coachesFailed={coaches.status === 'error'}
        disabled={running}
        onKind={setKind}
        onFilter={setFilter}
        onStart={startChosen}
      />
      <div className="export-status" aria-live="polite" tabIndex={-1} ref={statusRef}>
        <RunStatus run={run} onCancel={cancel} onRetry={startChosen} />
      </div>
    </section>
  );
}

/** One export at a time: its progress, its file once done; leaving the page stops it and frees the file. */
function useExportRun() {
  const [run, setRun] = useState<RunState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  // Leaving the page stops a running export and frees the finished file.
  useEffect(() => () => controller.current?.abort(), []);
  useEffect(
    () => () => {
      if (run.phase === 'done') URL.revokeObjectURL(run.url);
    },
    [run],
  );

  const start = async (kind: ExportKind, filter: ExportFilter) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setRun({ phase: 'running', step: 'export.step.start', progress: { done: 0, total: null } });
    try {
      const result = await buildExport(kind, filter, {
        signal: current.signal,
        today: localToday(),
        onProgress: (step, progress) => {
          if (!current.signal.aborted) setRun({ phase: 'running', step, progress });
        },
      });
      if (current.signal.aborted) throw new ListCancelled();
      const url = URL.createObjectURL(new Blob([result.text], { type: 'text/csv;charset=utf-8' }));
      downloadCsv(result.fileName, result.text);
      setRun({ phase: 'done', rows: result.rows, fileName: result.fileName, url });
    } catch (error) {
      if (error instanceof ListCancelled || current.signal.aborted) setRun({ phase: 'cancelled' });
      else setRun({ phase: 'failed', message: errorText(error) });
    } finally {
      if (controller.current === current) controller.current = null;
    }
  };
  const cancel = () => controller.current?.abort();
  const running = run.phase === 'running';
  // The cancel button disappears when the run ends; keyboard focus moves to the outcome instead of the page top.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running) {
      wasRunning.current = true;
      return;
    }
    if (!wasRunning.current) return;
    wasRunning.current = false;
    if (document.activeElement === document.body || document.activeElement === null) statusRef.current?.focus();
  }, [running]);
  return { run, start, cancel, running, statusRef };
}

/** Progress with "Abbrechen" while an export runs, then its outcome. */
function RunStatus({ run, onCancel, onRetry }: { run: RunState; onCancel: () => void; onRetry: () => void }) {
  return (
    <>
      {run.phase === 'running' && (
        <div className="export-progress">
          <label htmlFor="export-progress-bar">
            {t(run.step)}{' '}
            {run.progress.total === null
              ? t('export.progressUnknown', { done: formatNumber(run.progress.done) })
              : t('export.progress', { done: formatNumber(run.progress.done), total: formatNumber(run.progress.total) })}
          </label>
          {run.progress.total ? (
            <progress id="export-progress-bar" value={run.progress.done} max={run.progress.total} />
          ) : (
            <progress id="export-progress-bar" />
          )}
          <button type="button" className="secondary" onClick={onCancel}>
            {t('export.cancel')}
          </button>
        </div>
      )}
      {run.phase === 'done' && (
        <p role="status" className="export-done">
          {run.rows === 0 ? t('export.doneEmpty') : t('export.done', { n: formatNumber(run.rows) })}{' '}
          <a href={run.url} download={run.fileName}>
            {t('export.saveAgain', { file: run.fileName })}
          </a>
        </p>
      )}
      {run.phase === 'cancelled' && <p role="status">{t('export.cancelled')}</p>}
      {run.phase === 'failed' && (
        <div role="alert" className="export-failed">
          <p>
            <strong>{t('export.failed')}</strong> {run.message}
          </p>
          <button type="button" className="secondary" onClick={onRetry}>
            {t('export.retry')}
          </button>
        </div>
      )}
    </>
  );
}
