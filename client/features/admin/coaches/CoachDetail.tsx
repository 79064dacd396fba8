import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { deleteCoach, getCoach, listCoachPatients, resetCoachPassword, sendVerificationEmail, updateCoach } from '../../../api/coaches.ts';
import { CoachSchema, type Coach } from '../../../api/schemas/coaches.ts';
import { DataState } from '../../../components/DataState.tsx';
import { useAction } from '../../../components/useAction.ts';
import { ConflictError, useVersionedSave } from '../../../components/useVersionedSave.ts';
import { errorText } from '../../../components/errorText.ts';
import { useResource } from '../../../components/useResource.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { user } from '../../../state/session.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { CoachFormDialog } from './CoachFormDialog.tsx';
import { LinkPatientDialog } from './LinkPatientDialog.tsx';
import { roleText } from './CoachList.tsx';
import { coachStatus } from './coach-status.ts';
import { hasCoachDraft } from './coach-form.ts';
import { coachName, patientListName } from '../../../lib/names.ts';

type DialogKind = 'edit' | 'delete' | 'lock' | 'link' | null;

/** Lock and delete act on what the administrator sees: a change by someone else in between stops them. */
const sameCoach = (a: Coach, b: Coach) => JSON.stringify({ ...a, updatedAt: '' }) === JSON.stringify({ ...b, updatedAt: '' });

/** One coach: details, the patients they look after, and every administrative action. */
export function CoachDetail({ coachId, onNotice }: { coachId: string; onNotice: (text: string, forPath?: string) => void }) {
  const [, navigate] = useLocation();
  const coach = useResource((signal) => getCoach(coachId, signal), coachId);
  const patients = useResource((signal) => listCoachPatients(coachId, { order: ['lastName ASC', 'id ASC'], limit: 1000 }, signal), coachId);
  // An edit with unsaved values (a reload, a failed save) opens again by itself.
  const [dialog, setDialog] = useState<DialogKind>(() => (hasCoachDraft(user.value?.id, coachId) ? 'edit' : null));
  // Which of the buttons started the request that runs (its spinner); the others are disabled meanwhile.
  const [started, setStarted] = useState<string | null>(null);
  const action = useAction((failure) =>
    (failure as { status?: number }).status === 409 ? t('admin.coach.selfLockout') : `${t('admin.actionFailed')} ${errorText(failure)}`,
  );
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
              <dd className="admin-wrap">{c.email}</dd>
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
            <div className="admin-actions" role="group" aria-label={t('admin.coach.actions')}>
              <button type="button" onClick={() => setDialog('edit')}>
                {t('admin.edit')}
              </button>
              {c.isUserLocked ? (
                <button type="button" className="secondary" disabled={!!busy} aria-busy={busy === 'unlock'} onClick={() => setLocked(false)}>
                  {t('admin.coach.unlock')}
                </button>
              ) : (
                <button type="button" className="secondary" disabled={!!busy || isSelf} onClick={() => setDialog('lock')}>
                  {t('admin.coach.lock')}
                </button>
              )}
              {!c.emailVerified && (
                <button
                  type="button"
                  className="secondary"
                  disabled={!!busy}
                  aria-busy={busy === 'verify'}
                  onClick={() =>
                    act('verify', async () => {
                      await sendVerificationEmail(coachId);
                      return t('admin.coach.verificationSent', { email: c.email });
                    })
                  }
                >
                  {t('admin.coach.sendVerification')}
                </button>
              )}
              <button
                type="button"
                className="secondary"
                disabled={!!busy}
                aria-busy={busy === 'reset'}
                onClick={() =>
                  act('reset', async () => {
                    await resetCoachPassword(coachId);
                    return t('admin.coach.resetSent', { email: c.email });
                  })
                }
              >
                {t('admin.coach.resetPassword')}
              </button>
              <button type="button" className="secondary" onClick={() => setDialog('link')}>
                {t('admin.coach.linkPatient')}
              </button>
              <button type="button" className="danger outline" disabled={isSelf} onClick={() => setDialog('delete')}>
                {t('admin.delete')}
              </button>
            </div>
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
            {dialog === 'edit' && (
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
