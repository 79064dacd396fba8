import { useState } from 'react';
import { getCoach, updateCoach } from '../../api/coaches.ts';
import { CoachSchema, type Coach } from '../../../contract/schemas/coaches.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import { ConflictNotice, changedFields } from '../../components/ConflictNotice.tsx';
import { DataState } from '../../components/DataState.tsx';
import { useForm } from '../../data/useForm.ts';
import { errorText } from '../../components/errorText.ts';
import { useQuery } from '../../data/useQuery.ts';
import { t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';
import { ProfileForm, type ProfileValues } from './ProfileForm.tsx';

const PROFILE = ['firstName', 'lastName', 'title', 'phone'] as const;
const sameProfile = (a: Coach, b: Coach) => PROFILE.every((key) => a[key] === b[key]);

/**
 * The signed-in coach's own data; editable where the server allows it. A save names the version it was based on:
 * an administrator's change in between is shown, and the typed values stay.
 */
export function ProfileSection() {
  const me = user.value;
  const [editing, setEditing] = useState(false);
  const [formKey, setFormKey] = useState(0);
  // No draft: the profile has three fields and a save is one click away.
  const versioned = useForm<never, typeof CoachSchema>({ draft: null, schema: CoachSchema, sameForForm: sameProfile });
  const coach = useQuery(async (signal) => (me ? getCoach(me.id, signal) : Promise.reject(new Error('no user'))), me?.id ?? '');
  // Some upstreams let only administrators read coach records: then the session data is all we show.
  const forbidden = coach.status === 'error' && (coach.error as { status?: number }).status === 403;

  if (!me) return null;

  const save = async (values: ProfileValues) => {
    const { data } = await versioned.save(coach.data ?? null, (ifMatch) => updateCoach(me.id, values, ifMatch));
    coach.setData(() => data);
    user.value = { ...me, firstName: data.firstName, lastName: data.lastName };
    setEditing(false);
  };

  return (
    <section aria-labelledby="settings-profile-heading">
      <h2 id="settings-profile-heading">{t('settings.profileHeading')}</h2>
      {forbidden ? (
        <ProfileFacts me={me} />
      ) : (
        <DataState status={coach.status} error={coach.error} onRetry={coach.reload} hasData={!!coach.data}>
          {editing && coach.data ? (
            <ProfileForm
              key={formKey}
              coach={coach.data}
              onSave={save}
              onCancel={() => {
                versioned.dismissConflict();
                setEditing(false);
              }}
              describeError={errorText}
              notice={
                versioned.conflict && (
                  <ConflictNotice
                    changes={changedFields(
                      coach.data,
                      versioned.conflict.current,
                      PROFILE.map((key) => ({ label: t(`settings.${key === 'title' ? 'jobTitle' : key}`), text: (c: Coach) => c[key] })),
                    )}
                    onTakeTheirs={() => {
                      const current = versioned.conflict!.current;
                      coach.setData(() => current);
                      versioned.dismissConflict();
                      setFormKey((k) => k + 1);
                    }}
                  />
                )
              }
            />
          ) : (
            <>
              <ProfileFacts me={me} coach={coach.data} />
              <button type="button" className="secondary" onClick={() => setEditing(true)}>
                {t('settings.editProfile')}
              </button>
            </>
          )}
        </DataState>
      )}
    </section>
  );
}

/** What the profile says of the signed-in coach; title, phone and a pending address only where the coach record could be read. */
function ProfileFacts({ me, coach }: { me: Me; coach?: Coach }) {
  const roles = [
    me.isSuperAdmin && t('settings.roleSuperAdmin'),
    me.isAdmin && t('settings.roleAdmin'),
    me.isHealthManager && t('settings.roleHealthManager'),
  ].filter((role): role is string => !!role);
  return (
    <dl className="settings-profile">
      <dt>{t('settings.name')}</dt>
      <dd>{`${me.firstName} ${me.lastName}`.trim() || t('settings.notSet')}</dd>
      {coach && (
        <>
          <dt>{t('settings.jobTitle')}</dt>
          <dd>{coach.title || t('settings.notSet')}</dd>
          <dt>{t('settings.phone')}</dt>
          <dd>{coach.phone || t('settings.notSet')}</dd>
        </>
      )}
      <dt>{t('settings.email')}</dt>
      <dd>
        {me.email} {me.emailVerified ? '' : <span className="settings-hint">({t('settings.emailNotVerified')})</span>}
        {coach?.pendingEmail && (
          <small role="note" className="settings-hint settings-pending">
            {t('accounts.settings.pendingEmail', { email: coach.pendingEmail })}
          </small>
        )}
      </dd>
      <dt>{t('settings.roles')}</dt>
      <dd>{roles.length > 0 ? roles.join(', ') : t('settings.roleCoach')}</dd>
    </dl>
  );
}
