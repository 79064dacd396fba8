import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { deleteCoach, endCoachSessions, getCoach, listCoachPatients, resetCoachPassword, sendVerificationEmail, updateCoach } from '../../../api/coaches.ts';
import { CoachSchema, type Coach } from '../../../../contract/schemas/coaches.ts';
import { DataState } from '../../../components/DataState.tsx';
import { useMutation } from '../../../data/useMutation.ts';
import { ConflictError, useVersionedSave } from '../../../data/useVersionedSave.ts';
import { type AccountAction, mayActOn } from '../../../domain/permissions.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { user } from '../../../state/session.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { actionErrorText } from '../form-errors.ts';
import { CoachFormDialog } from './CoachFormDialog.tsx';
import { LinkPatientDialog } from './LinkPatientDialog.tsx';
import { roleText } from './CoachList.tsx';
import { coachStatus } from './coach-status.ts';
import { hasCoachDraft } from './coach-form.ts';
import { coachName, patientListName } from '../../../lib/names.ts';
import { readAll } from '../../../data/fetch-all.ts';

type DialogKind = 'edit' | 'delete' | 'lock' | 'link' | 'endSessions' | null;

/** Lock and delete act on what the administrator sees: a change by someone else in between stops them. */
const sameCoach = (a: Coach, b: Coach) => JSON.stringify({ ...a, updatedAt: '' }) === JSON.stringify({ ...b, updatedAt: '' });

/** One coach: details, the patients they look after, and every administrative action. */
export function CoachDetail({ coachId, onNotice }: { coachId: string; onNotice: (text: string, forPath?: string) => void }) {
  const [, navigate] = useLocation();
  const coach = useQuery((signal) => getCoach(coachId, signal), coachId);
  const patients = useQuery(
    (signal) => readAll((range) => listCoachPatients(coachId, { order: ['lastName ASC', 'id ASC'], ...range }, signal), signal),
    coachId,
  );
  // An edit with unsaved values (a reload, a failed save) opens again by itself.
  const [dialog, setDialog] = useState<DialogKind>(() => (hasCoachDraft(user.value?.id, coachId) ? 'edit' : null));
  // Which of the buttons started the request that runs (its spinner); the others are disabled meanwhile.
  const [started, setStarted] = useState<string | null>(null);
  const action = useMutation((failure) => actionErrorText(failure));
  const busy = action.busy ? started : null;
  const isSelf = user.value?.id === coachId;
  const versioned = useVersionedSave(CoachSchema, sameCoach);
  /**
   * A lock or delete that met a change by someone else: the screen now shows the coach as stored, and the next
   * attempt is based on that (ConflictError carries the current record).
   */
  const showCurrent = (failure: unknown) => {
    if (!(failure instanceof ConflictError)) return;
    coach.setData(() => (failure as ConflictError<Coach>).conflict.current);
    versioned.dismiss();
  };

  const act = (key: string, request: () => Promise<string>) => {
    setStarted(key);
    return action.run(async () => {
      try {
        onNotice(await request());
      } catch (failure) {
        showCurrent(failure);
        throw failure;
      }
    });
  };

  const c = coach.data;
  const name = c ? coachName(c) : '';
  const lock = async (locked: boolean) => {
    const { data } = await versioned.save(c ?? null, (ifMatch) => updateCoach(coachId, { isUserLocked: locked }, ifMatch));
    coach.setData(() => data);
  };
  const setLocked = (locked: boolean) =>
    act(locked ? 'lock' : 'unlock', async () => {
      await lock(locked);
      return locked ? t('admin.coach.lockedDone', { name }) : t('admin.coach.unlockedDone', { name });
    });

  return (
    <section aria-labelledby="admin-coach-heading">
      <p>
        <Link href="/admin">{t('admin.coach.back')}</Link>
      </p>
      <DataState status={coach.status} error={coach.error} onRetry={coach.reload} hasData={!!c}>
        {c && (
          <>
            <h2 id="admin-coach-heading">
              {name} {c.title && <small className="admin-muted">{c.title}</small>}
            </h2>
            <dl className="admin-details">
              <dt>{t('admin.coach.email')}</dt>
              <dd className="admin-wrap">
                {c.email}
                {c.pendingEmail && (
                  <small className="admin-block admin-pending field-hint">{t('accounts.admin.pendingEmail', { email: c.pendingEmail })}</small>
                )}
              </dd>
              <dt>{t('admin.coach.phone')}</dt>
              <dd>{c.phone || t('admin.notSet')}</dd>
              <dt>{t('admin.coach.roles')}</dt>
              <dd>{roleText(c)}</dd>
              <dt>{t('admin.coach.state')}</dt>
              <dd>
                {coachStatus(c).map((s) => (
                  <span key={s.key} className={`admin-tag admin-tag-${s.tone}`}>
                    {s.text}
                  </span>
                ))}
              </dd>
            </dl>
            <CoachActions coach={c} busy={busy} isSelf={isSelf} act={act} open={setDialog} onUnlock={() => setLocked(false)} />
            {!mayActOn('edit', c) && <p className="field-hint">{t('accounts.admin.superAdminHint')}</p>}
            {isSelf && <p className="field-hint">{t('admin.coach.selfHint')}</p>}
            {action.error && (
              <p role="alert" className="form-error">
                {action.error}
              </p>
            )}
            <h3>{t('admin.coach.patientsHeading')}</h3>
            <DataState
              status={patients.status}
              error={patients.error}
              onRetry={patients.reload}
              hasData={!!patients.data?.length}
              empty={(patients.data ?? []).length === 0}
              emptyText={t('admin.coach.noPatients')}
            >
              <p className="admin-count">{t('admin.coach.patientCount', { n: formatNumber(patients.data?.length ?? 0) })}</p>
              <ul className="admin-patient-list">
                {(patients.data ?? []).map((p) => (
                  <li key={p.id}>
                    <Link href={`/patient/${encodeURIComponent(p.id)}`}>
                      {p.patientCode} · {patientListName(p)}
                    </Link>
                  </li>
                ))}
              </ul>
            </DataState>
            {dialog === 'edit' && mayActOn('edit', c) && (
              <CoachFormDialog
                coach={c}
                onClose={() => setDialog(null)}
                onSaved={(saved: Coach, message) => {
                  coach.setData(() => saved);
                  setDialog(null);
                  onNotice(message);
                }}
              />
            )}
            {dialog === 'lock' && (
              <ConfirmDialog
                title={t('admin.coach.lockTitle')}
                describeError={actionErrorText}
                text={t('admin.coach.lockText', { name })}
                confirmLabel={t('admin.coach.lock')}
                onClose={() => setDialog(null)}
                onConfirm={async () => {
                  try {
                    await lock(true);
                  } catch (failure) {
                    showCurrent(failure);
                    throw failure;
                  }
                  setDialog(null);
                  onNotice(t('admin.coach.lockedDone', { name }));
                }}
              />
            )}
            {dialog === 'delete' && (
              <ConfirmDialog
                title={t('admin.coach.deleteTitle')}
                describeError={actionErrorText}
                text={t('admin.coach.deleteText', { name })}
                confirmLabel={t('admin.delete')}
                onClose={() => setDialog(null)}
                onConfirm={async () => {
                  try {
                    await versioned.save(c, (ifMatch) => deleteCoach(coachId, ifMatch));
                  } catch (failure) {
                    showCurrent(failure);
                    throw failure;
                  }
                  onNotice(t('admin.coach.deleted', { name }), '/admin');
                  navigate('/admin');
                }}
              />
            )}
            {dialog === 'endSessions' && (
              <ConfirmDialog
                title={t('accounts.admin.endSessionsTitle')}
                text={isSelf ? t('accounts.admin.endSessionsSelfText') : t('accounts.admin.endSessionsText', { name })}
                confirmLabel={t('accounts.admin.endSessions')}
                describeError={(failure) => actionErrorText(failure, t('accounts.admin.endSessionsFailed'))}
                onClose={() => setDialog(null)}
                onConfirm={async () => {
                  await endCoachSessions(coachId);
                  setDialog(null);
                  onNotice(isSelf ? t('accounts.settings.otherSessionsEnded') : t('accounts.admin.sessionsEnded', { name }));
                }}
              />
            )}
            {dialog === 'link' && (
              <LinkPatientDialog
                coach={c}
                onClose={() => setDialog(null)}
                onLinked={(message) => {
                  setDialog(null);
                  onNotice(message);
                  patients.reload();
                }}
              />
            )}
          </>
        )}
      </DataState>
    </section>
  );
}

interface ActionProps {
  coach: Coach;
  /** The button whose request runs; every button that starts one is disabled meanwhile. */
  busy: string | null;
  isSelf: boolean;
  act: (key: string, request: () => Promise<string>) => Promise<boolean>;
  open: (dialog: DialogKind) => void;
  onUnlock: () => void;
}

/**
 * The buttons of one coach's page. Only what the signed-in administrator may do to this account is offered
 * (domain/permissions.ts): an administrator's account only to a super administrator, who sees every action;
 * lock and delete never on oneself (shown disabled, the page says why).
 */
function CoachActions({ coach: c, busy, isSelf, act, open, onUnlock }: ActionProps) {
  const may = (action: AccountAction) => mayActOn(action, c);
  const mail = (key: 'verify' | 'reset', send: (id: string) => Promise<unknown>, done: string) =>
    act(key, async () => {
      await send(c.id);
      return t(done, { email: c.email });
    });
  return (
    <div className="admin-actions" role="group" aria-label={t('admin.coach.actions')}>
      {may('edit') && (
        <button type="button" onClick={() => open('edit')}>
          {t('admin.edit')}
        </button>
      )}
      {c.isUserLocked && may('lock') && (
        <button type="button" className="secondary" disabled={!!busy} aria-busy={busy === 'unlock'} onClick={onUnlock}>
          {t('admin.coach.unlock')}
        </button>
      )}
      {!c.isUserLocked && (may('lock') || isSelf) && (
        <button type="button" className="secondary" disabled={!!busy || isSelf} onClick={() => open('lock')}>
          {t('admin.coach.lock')}
        </button>
      )}
      {!c.emailVerified && (
        <button
          type="button"
          className="secondary"
          disabled={!!busy}
          aria-busy={busy === 'verify'}
          onClick={() => mail('verify', sendVerificationEmail, 'admin.coach.verificationSent')}
        >
          {t('admin.coach.sendVerification')}
        </button>
      )}
      {may('resetPassword') && (
        <button
          type="button"
          className="secondary"
          disabled={!!busy}
          aria-busy={busy === 'reset'}
          onClick={() => mail('reset', resetCoachPassword, 'admin.coach.resetSent')}
        >
          {t('admin.coach.resetPassword')}
        </button>
      )}
      {may('endSessions') && (
        <button type="button" className="secondary" disabled={!!busy} onClick={() => open('endSessions')}>
          {t('accounts.admin.endSessions')}
        </button>
      )}
      <button type="button" className="secondary" onClick={() => open('link')}>
        {t('admin.coach.linkPatient')}
      </button>
      {(may('delete') || isSelf) && (
        <button type="button" className="danger outline" disabled={isSelf} onClick={() => open('delete')}>
          {t('admin.delete')}
        </button>
      )}
    </div>
  );
}
