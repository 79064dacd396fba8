import { useState } from 'react';
import { getCoach, updateCoach } from '../../api/coaches.ts';
import type { Coach } from '../../api/schemas/coaches.ts';
import { DataState } from '../../components/DataState.tsx';
import { errorText } from '../../components/errorText.ts';
import { useResource } from '../../components/useResource.ts';
import { t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';
import { ProfileForm, type ProfileValues } from './ProfileForm.tsx';

/** The signed-in coach's own data; editable where the server allows it. */
export function ProfileSection() {
  const me = user.value;
  const [editing, setEditing] = useState(false);
  const coach = useResource(async (signal) => (me ? getCoach(me.id, signal) : Promise.reject(new Error('no user'))), me?.id ?? '');
  // Some upstreams let only administrators read coach records: then the session data is all we show.
  const forbidden = coach.status === 'error' && (coach.error as { status?: number }).status === 403;

  if (!me) return null;
  const roles = [
    me.isSuperAdmin && t('settings.roleSuperAdmin'),
    me.isAdmin && t('settings.roleAdmin'),
    me.isHealthManager && t('settings.roleHealthManager'),
  ].filter((role): role is string => !!role);

  const save = async (values: ProfileValues) => {
    const { data } = await updateCoach(me.id, values);
    coach.setData(() => data);
    user.value = { ...me, firstName: data.firstName, lastName: data.lastName };
    setEditing(false);
  };

  const details = (extra: Coach | undefined) => (
    <dl class="settings-profile">
      <dt>{t('settings.name')}</dt>
      <dd>{`${me.firstName} ${me.lastName}`.trim() || t('settings.notSet')}</dd>
      {extra && (
        <>
          <dt>{t('settings.jobTitle')}</dt>
          <dd>{extra.title || t('settings.notSet')}</dd>
          <dt>{t('settings.phone')}</dt>
          <dd>{extra.phone || t('settings.notSet')}</dd>
        </>
      )}
      <dt>{t('settings.email')}</dt>
      <dd>
        {me.email} {me.emailVerified ? '' : <span class="settings-hint">({t('settings.emailNotVerified')})</span>}
      </dd>
      <dt>{t('settings.roles')}</dt>
      <dd>{roles.length > 0 ? roles.join(', ') : t('settings.roleCoach')}</dd>
    </dl>
  );

  return (
    <section aria-labelledby="settings-profile-heading">
      <h2 id="settings-profile-heading">{t('settings.profileHeading')}</h2>
      {forbidden ? (
        details(undefined)
      ) : (
        <DataState status={coach.status} error={coach.error} onRetry={coach.reload} hasData={!!coach.data}>
          {editing && coach.data ? (
            <ProfileForm coach={coach.data} onSave={save} onCancel={() => setEditing(false)} describeError={errorText} />
          ) : (
            <>
              {details(coach.data)}
              <button type="button" class="secondary" onClick={() => setEditing(true)}>
                {t('settings.editProfile')}
              </button>
            </>
          )}
        </DataState>
      )}
    </section>
  );
}
