import { useState } from 'react';
import { Link } from 'wouter';
import { listCoaches } from '../../../api/coaches.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';
import { DataState } from '../../../components/DataState.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { CoachFormDialog } from './CoachFormDialog.tsx';
import { TrialAccessDialog } from './TrialAccessDialog.tsx';
import { coachStatus } from './coach-status.ts';
import { coachListName } from '../../../lib/names.ts';
import { user } from '../../../state/session.ts';
import { hasCoachDraft } from './coach-form.ts';
import { readAll } from '../../../data/fetch-all.ts';

/** Every coach with roles and state; search narrows the list as you type. */
export function CoachList({ onNotice }: { onNotice: (text: string) => void }) {
  const coaches = useQuery(
    (signal) => readAll((range) => listCoaches({ order: ['lastName ASC', 'firstName ASC', 'id ASC'], ...range }, signal), signal),
    'coaches',
  );
  const [query, setQuery] = useState('');
  // A new coach's form with unsaved values (a reload, a failed save) opens again by itself.
  const [dialog, setDialog] = useState<'create' | 'trial' | null>(() => (hasCoachDraft(user.value?.id) ? 'create' : null));
  const all = coaches.data ?? [];
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = all.filter((c) => words.every((w) => `${c.firstName} ${c.lastName} ${c.email}`.toLowerCase().includes(w)));

  return (
    <section aria-labelledby="admin-coaches-heading">
      <div className="admin-toolbar">
        <h2 id="admin-coaches-heading">{t('admin.coach.listHeading')}</h2>
        <div className="button-row">
          <button type="button" onClick={() => setDialog('create')}>
            {t('admin.coach.create')}
          </button>
          <button type="button" className="secondary" onClick={() => setDialog('trial')}>
            {t('admin.trial.create')}
          </button>
        </div>
      </div>
      <label className="admin-search">
        {t('admin.coach.search')}
        <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} autoComplete="off" />
      </label>
      <DataState
        status={coaches.status}
        error={coaches.error}
        onRetry={coaches.reload}
        hasData={all.length > 0}
        empty={shown.length === 0}
        emptyText={all.length === 0 ? t('admin.coach.empty') : t('admin.coach.noMatch')}
      >
        <p className="admin-count" aria-live="polite">
          {t('admin.coach.count', { n: formatNumber(shown.length) })}
        </p>
        <div className="table-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.coach.nameAndEmail')}</th>
                <th scope="col">{t('admin.coach.roles')}</th>
                <th scope="col">{t('admin.coach.state')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link href={`/admin/coaches/${encodeURIComponent(c.id)}`}>{coachListName(c)}</Link>
                    <small className="admin-block admin-muted admin-wrap">{c.email}</small>
                  </th>
                  <td>{roleText(c)}</td>
                  <td>
                    {coachStatus(c).map((s) => (
                      <span key={s.key} className={`admin-tag admin-tag-${s.tone}`}>
                        {s.text}
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
      {dialog === 'create' && (
        <CoachFormDialog
          onClose={() => setDialog(null)}
          onSaved={(_coach, message) => {
            setDialog(null);
            onNotice(message);
            coaches.reload();
          }}
        />
      )}
      {dialog === 'trial' && <TrialAccessDialog onClose={() => setDialog(null)} />}
    </section>
  );
}

export function roleText(c: Pick<Coach, 'isAdmin' | 'isSuperAdmin' | 'isHealthManager'>): string {
  const roles = [c.isSuperAdmin && t('admin.role.superAdmin'), c.isAdmin && t('admin.role.admin'), c.isHealthManager && t('admin.role.healthManager')].filter(
    (r): r is string => !!r,
  );
  return roles.length ? roles.join(', ') : t('admin.role.coach');
}
