import type { Patient } from '../../../../contract/schemas/patients.ts';
import { dayText } from '../../../components/AftercareBadge.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { birthText, nextAppointment, telHref } from '../../../lib/identity.ts';
import { loadLastContact } from './last-contact.ts';

/**
 * Who this is and what is due, in the header of every tab: date of birth and age (two patients of one name differ
 * there), the phone to call, the last contact, the next appointment and the follow-up day. One compact line on a
 * laptop, a few short ones on a phone.
 */
export function PatientIdentity({ patient, now = new Date() }: { patient: Patient; now?: Date }) {
  const contact = useQuery((signal) => loadLastContact(patient.id, now, signal), `contact:${patient.id}`);
  const next = nextAppointment(patient, now.getTime());
  const birth = birthText(patient.birthDate, now);
  const none = t('identity.none');
  const last = contact.data
    ? t(`identity.contact.${contact.data.kind}`, { date: formatDate(contact.data.at, { dateStyle: 'medium' }) })
    : contact.status === 'loading'
      ? '…'
      : none;
  return (
    <dl className="patient-identity">
      <div>
        <dt>{t('identity.born')}</dt>
        <dd>{birth || none}</dd>
      </div>
      <div>
        <dt>{t('identity.phone')}</dt>
        <dd>{patient.phone ? <a href={telHref(patient.phone)}>{patient.phone}</a> : none}</dd>
      </div>
      <div>
        <dt>{t('identity.lastContact')}</dt>
        {/* Busy while it loads: the page shows once it is there (components/Settle.tsx), so the line never re-wraps under the reader. */}
        <dd aria-busy={contact.status === 'loading' || undefined}>{last}</dd>
      </div>
      <div className={next ? undefined : 'identity-empty'}>
        <dt>{t('identity.nextAppointment')}</dt>
        <dd>{next ? formatDate(next.startsAt, { dateStyle: 'medium', timeStyle: 'short' }) : none}</dd>
      </div>
      <div className={patient.followUpAt ? undefined : 'identity-empty'}>
        <dt>{t('identity.followUp')}</dt>
        <dd>{patient.followUpAt ? dayText(patient.followUpAt) : none}</dd>
      </div>
    </dl>
  );
}
