import { useState } from 'react';
import { listAuditLog } from '../../../../api/audit-log.ts';
import type { AuditEntry } from '../../../../../contract/schemas/audit-log.ts';
import type { Comment } from '../../../../../contract/schemas/comments.ts';
import { DataState } from '../../../../components/DataState.tsx';
import { useQuery } from '../../../../data/useQuery.ts';
import { t } from '../../../../lib/i18n.ts';
import { dateTime } from './comment-drafts.ts';

export interface CommentVersion {
  text: string;
  at: string;
  by: string;
}

/** The texts a note had, oldest first, each with who wrote it and when (from its audit entries). */
export function versionsOf(entries: AuditEntry[]): CommentVersion[] {
  return [...entries]
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1))
    .filter((e) => e.action !== 'delete' && typeof e.changes.text?.after === 'string')
    .map((e) => ({ text: e.changes.text.after as string, at: e.at, by: e.actorName ?? t('patient.history.system') }));
}

/**
 * "Frühere Fassungen": what an edited note said before, with who wrote each version and when (a clinical note stays
 * recognisable after a change). Loaded when opened.
 */
export function CommentVersions({ comment }: { comment: Comment }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="comment-versions" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{t('patient.comments.versions')}</summary>
      {open && <VersionList comment={comment} />}
    </details>
  );
}

function VersionList({ comment }: { comment: Comment }) {
  const entries = useQuery(
    (signal) => listAuditLog({ where: { patientId: comment.patientId, entity: 'comment', entityId: comment.id }, order: 'at ASC', limit: 100 }, signal),
    `${comment.id}:${comment.updatedAt}`,
  );
  // The newest version is the text on screen; the list shows the ones before it.
  const earlier = versionsOf(entries.data ?? [])
    .slice(0, -1)
    .reverse();
  return (
    <DataState
      status={entries.status}
      error={entries.error}
      onRetry={entries.reload}
      hasData={!!entries.data}
      empty={earlier.length === 0}
      emptyText={t('patient.comments.noVersions')}
    >
      <ol className="comment-version-list">
        {earlier.map((version) => (
          <li key={version.at}>
            <p className="comment-meta">{t('patient.comments.versionBy', { date: dateTime(version.at), name: version.by })}</p>
            <p className="comment-text">{version.text}</p>
          </li>
        ))}
      </ol>
    </DataState>
  );
}
