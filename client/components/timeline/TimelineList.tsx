import { formatDate, t } from '../../lib/i18n.ts';
import type { TimelineEntry } from './timeline-entries.ts';
import './timeline.css';

/** The entries of a timeline, as the record's tab and the printed record show them. */
export function TimelineList({ entries }: { entries: TimelineEntry[] }) {
  return (
    <ol className="timeline-list">
      {entries.map((e) => (
        <li key={e.key} className={`timeline-entry timeline-${e.kind}`}>
          <p className="timeline-meta">
            <time dateTime={e.at}>{formatDate(e.at, { dateStyle: 'medium', timeStyle: 'short' })}</time> ·{' '}
            <span className="timeline-kind">{t(`timeline.kind.${e.kind}`)}</span>
            {e.who && <> · {e.who}</>}
          </p>
          <p className="timeline-title">
            <strong>{e.title}</strong>
            {e.facts.length > 0 && <> · {e.facts.join(' · ')}</>}
          </p>
          {e.text && <p className="timeline-text">{e.text}</p>}
          {e.lines.length > 0 && (
            <dl className="timeline-changes">
              {e.lines.map((line) => (
                <div key={line.label}>
                  <dt>{line.label}</dt>
                  <dd>
                    <span className="timeline-before">{line.before}</span>
                    <span aria-hidden="true"> → </span>
                    <span className="visually-hidden">{t('timeline.to')}</span>
                    <span>{line.after}</span>
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ol>
  );
}
