import type { Patient } from '../../../../contract/schemas/patients.ts';
import { dayText } from '../../../components/AftercareBadge.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { birthText, nextAppointment, telHref } from '../../../lib/identity.ts';
import { loadLastContact } from './last-contact.ts';

/** A date as wide as any: two-digit day and month (the width a last contact's text can take). */
const WIDE_DATE = '2026-12-28T12:00:00Z';

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
  const wide = formatDate(WIDE_DATE, { dateStyle: 'medium' });
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
        {/*
          Busy while it loads, so the page waits for it (components/Settle.tsx) - but at most HOLD_MS. On a slow line
          it then comes after the page has shown: the box is as wide as its longest text from the start (patient.css),
          so the line never re-wraps and pushes the record down under the reader.
        */}
        <dd
          className="identity-reserved"
          aria-busy={contact.status === 'loading' || undefined}
          data-reserve-call={t('identity.contact.call', { date: wide })}
          data-reserve-comment={t('identity.contact.comment', { date: wide })}
        >
          <span>{last}</span>
        </dd>
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
