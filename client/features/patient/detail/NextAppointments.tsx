import { Link } from 'wouter';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { t } from '../../../lib/i18n.ts';
import { appointmentTime } from '../../../lib/identity.ts';

/** The next planned contacts on the overview, so the coach sees at once when the next call is due. */
export function NextAppointments({ patient, now = new Date() }: { patient: Patient; now?: Date }) {
  const next = patient.appointments.filter((a) => Date.parse(a.startsAt) >= now.getTime()).slice(0, 3);
  return (
    <section aria-labelledby="next-appointments-heading" className="card">
      <h2 id="next-appointments-heading">{t('patient.appointments.next')}</h2>
      {next.length === 0 ? (
        <p className="muted">{t('patient.appointments.noneUpcoming')}</p>
      ) : (
        <ul className="row-list">
          {next.map((a) => (
            <li key={a.id}>
              <span>
                <strong>{appointmentTime(a.startsAt)}</strong>
                {' · '}
                {t(`patient.appointments.type.${a.type}`)}
                {a.note && (
                  <>
                    <br />
                    <small className="muted">{a.note}</small>
                  </>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link href={`/patient/${encodeURIComponent(patient.id)}?tab=appointments`}>{t('patient.appointments.manage')}</Link>
      </p>
    </section>
  );
}
