import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { deleteCoach, endCoachSessions, getCoach, listCoachPatients, resetCoachPassword, sendVerificationEmail, updateCoach } from '../../../api/coaches.ts';
import { CoachSchema, type Coach } from '../../../../contract/schemas/coaches.ts';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { DataState } from '../../../components/DataState.tsx';
import { useMutation } from '../../../data/useMutation.ts';
import { ConflictError, useForm } from '../../../data/useForm.ts';
import { type AccountAction, mayActOn } from '../../../domain/permissions.ts';
import { type Query, useQuery } from '../../../data/useQuery.ts';
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
type Notice = (text: string, forPath?: string) => void;

/** Lock and delete act on what the administrator sees: a change by someone else in between stops them. */
const sameCoach = (a: Coach, b: Coach) => JSON.stringify({ ...a, updatedAt: '' }) === JSON.stringify({ ...b, updatedAt: '' });

/**
 * The requests of one coach's page: lock, unlock and delete name the version on screen (If-Match); one that met a
 * change by someone else shows the coach as stored, and the next attempt is based on that.
 */
function useCoachRequests(coachId: string, coach: Query<Coach>, onNotice: Notice) {
  // Which of the buttons started the request that runs (its spinner); the others are disabled meanwhile.
  const [started, setStarted] = useState<string | null>(null);
  const action = useMutation((failure) => actionErrorText(failure));
  const versioned = useForm<never, typeof CoachSchema>({ draft: null, schema: CoachSchema, sameForForm: sameCoach });
  const showCurrent = (failure: unknown) => {
    if (!(failure instanceof ConflictError)) return;
    coach.setData(() => (failure as ConflictError<Coach>).conflict.current);
    versioned.dismissConflict();
  };
  /** Runs `request`, and on a conflict shows the coach as stored before the failure goes on. */
  const based = async <R,>(request: () => Promise<R>): Promise<R> => {
    try {
      return await request();
    } catch (failure) {
      showCurrent(failure);
      throw failure;
    }
  };
  const act = (key: string, request: () => Promise<string>) => {
    setStarted(key);
    return action.run(async () => onNotice(await request()));
  };
  const lock = (locked: boolean) =>
    based(async () => {
      const { data } = await versioned.save(coach.data ?? null, (ifMatch) => updateCoach(coachId, { isUserLocked: locked }, ifMatch));
      coach.setData(() => data);
    });
  const remove = () => based(() => versioned.save(coach.data ?? null, (ifMatch) => deleteCoach(coachId, ifMatch)));
  return { act, lock, remove, busy: action.busy ? started : null, error: action.error };
}

/** One coach: details, the patients they look after, and every administrative action. */
export function CoachDetail({ coachId, onNotice }: { coachId: string; onNotice: Notice }) {
  const coach = useQuery((signal) => getCoach(coachId, signal), coachId);
  // An edit with unsaved values (a reload, a failed save) opens again by itself.
  const [dialog, setDialog] = useState<DialogKind>(() => (hasCoachDraft(user.value?.id, coachId) ? 'edit' : null));
  const patients = useQuery(
    (signal) => readAll((range) => listCoachPatients(coachId, { order: ['lastName ASC', 'id ASC'], ...range }, signal), signal),
    coachId,
  );
  const requests = useCoachRequests(coachId, coach, onNotice);
  const isSelf = user.value?.id === coachId;
  const c = coach.data;
  const name = c ? coachName(c) : '';
  const setLocked = (locked: boolean) =>
    requests.act(locked ? 'lock' : 'unlock', async () => {
      await requests.lock(locked);
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
            <CoachFacts coach={c} />
            <CoachActions coach={c} busy={requests.busy} isSelf={isSelf} act={requests.act} open={setDialog} onUnlock={() => setLocked(false)} />
            {!mayActOn('edit', c) && <p className="field-hint">{t('accounts.admin.superAdminHint')}</p>}
            {isSelf && <p className="field-hint">{t('admin.coach.selfHint')}</p>}
            {requests.error && (
              <p role="alert" className="form-error">
                {requests.error}
              </p>
            )}
            <CoachPatients patients={patients} />
            <CoachDialogs
              coach={c}
              dialog={dialog}
              isSelf={isSelf}
              close={() => setDialog(null)}
              onNotice={onNotice}
              requests={requests}
              onSaved={(saved) => coach.setData(() => saved)}
              onLinked={patients.reload}
            />
          </>
        )}
      </DataState>
    </section>
  );
}

/** Name, contact, roles and state of one coach. */
function CoachFacts({ coach: c }: { coach: Coach }) {
  return (
    <>
      <h2 id="admin-coach-heading">
        {coachName(c)} {c.title && <small className="admin-muted">{c.title}</small>}
      </h2>
      <dl className="admin-details">
        <dt>{t('admin.coach.email')}</dt>
        <dd className="admin-wrap">
          {c.email}
          {c.pendingEmail && <small className="admin-block admin-pending field-hint">{t('accounts.admin.pendingEmail', { email: c.pendingEmail })}</small>}
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
    </>
  );
}

/** The patients a coach looks after, every one of them (read page by page). */
function CoachPatients({ patients }: { patients: Query<Patient[]> }) {
  return (
    <>
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
    </>
  );
}

interface DialogsProps {
  coach: Coach;
  dialog: DialogKind;
  isSelf: boolean;
  close: () => void;
  onNotice: Notice;
  requests: ReturnType<typeof useCoachRequests>;
  onSaved: (coach: Coach) => void;
  onLinked: () => void;
}

/** The dialog the page has open: edit, lock, delete, end sessions, link a patient. */
function CoachDialogs({ coach: c, dialog, isSelf, close, onNotice, requests, onSaved, onLinked }: DialogsProps) {
  const [, navigate] = useLocation();
  const name = coachName(c);
  if (dialog === 'edit' && mayActOn('edit', c)) {
    return (
      <CoachFormDialog
        coach={c}
        onClose={close}
        onSaved={(saved: Coach, message) => {
          onSaved(saved);
          close();
          onNotice(message);
        }}
      />
    );
  }
  if (dialog === 'lock') {
    return (
      <ConfirmDialog
        title={t('admin.coach.lockTitle')}
        describeError={actionErrorText}
        text={t('admin.coach.lockText', { name })}
        confirmLabel={t('admin.coach.lock')}
        onClose={close}
        onConfirm={async () => {
          await requests.lock(true);
          close();
          onNotice(t('admin.coach.lockedDone', { name }));
        }}
      />
    );
  }
  if (dialog === 'delete') {
    return (
      <ConfirmDialog
        title={t('admin.coach.deleteTitle')}
        describeError={actionErrorText}
        text={t('admin.coach.deleteText', { name })}
        confirmLabel={t('admin.delete')}
        onClose={close}
        onConfirm={async () => {
          await requests.remove();
          onNotice(t('admin.coach.deleted', { name }), '/admin');
          navigate('/admin');
        }}
      />
    );
  }
  if (dialog === 'endSessions') {
    return (
      <ConfirmDialog
        title={t('accounts.admin.endSessionsTitle')}
        text={isSelf ? t('accounts.admin.endSessionsSelfText') : t('accounts.admin.endSessionsText', { name })}
        confirmLabel={t('accounts.admin.endSessions')}
        describeError={(failure) => actionErrorText(failure, t('accounts.admin.endSessionsFailed'))}
        onClose={close}
        onConfirm={async () => {
          await endCoachSessions(c.id);
          close();
          onNotice(isSelf ? t('accounts.settings.otherSessionsEnded') : t('accounts.admin.sessionsEnded', { name }));
        }}
      />
    );
  }
  if (dialog === 'link') {
    return (
      <LinkPatientDialog
        coach={c}
        onClose={close}
        onLinked={(message) => {
          close();
          onNotice(message);
          onLinked();
        }}
      />
    );
  }
  return null;
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
