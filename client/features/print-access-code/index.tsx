import '../../components/records.css';
import '../../components/print.css';
import { useSearch } from 'wouter';
import { getPatient, getPrimaryCoach } from '../../api/patients.ts';
import { listPatientTokens } from '../../api/patient-tokens.ts';
import { getCoach } from '../../api/coaches.ts';
import type { Me } from '../../api/schemas/auth.ts';
import type { Coach } from '../../api/schemas/coaches.ts';
import { CodeBlocks } from '../../components/CodeBlocks.tsx';
import { PrintBar } from '../../components/PrintBar.tsx';
import { useResource } from '../../components/useResource.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { instanceTitle } from '../../lib/instance-title.ts';
import { user } from '../../state/session.ts';
import { coachName, patientName } from '../../lib/names.ts';
import { AppDownload } from './AppDownload.tsx';

type Contact = Pick<Coach, 'firstName' | 'lastName' | 'title' | 'phone' | 'email'>;

interface Extras {
  name: string | null;
  expiresAt: string | null;
  coach: { name: string; phone: string; email: string } | null;
}

/** The signed-in coach's card with their phone; their name and e-mail alone when the account cannot be read. */
async function ownContact(me: Me, signal: AbortSignal): Promise<Contact> {
  const fallback = { firstName: me.firstName, lastName: me.lastName, title: '', phone: '', email: me.email };
  return getCoach(me.id, signal).then(
    ({ data }) => ({ firstName: data.firstName, lastName: data.lastName, title: data.title, phone: data.phone, email: data.email }),
    () => fallback,
  );
}

/**
 * The sheet a patient takes home: the code in large blocks and, in German, how to use it. The code
 * comes from the URL; name, expiry and the coach's contact are added when they can be read, and the
 * sheet still prints without them.
 */
export default function PrintAccessCodePage() {
  const params = new URLSearchParams(useSearch());
  const code = (params.get('code') ?? '').slice(0, 64);
  const patientId = params.get('patientId') ?? '';
  const me = user.value;
  const extras = useResource<Extras>(async (signal) => {
    const [patient, coach, tokens] = await Promise.all([
      patientId
        ? getPatient(patientId, signal).then(
            (r) => r.data,
            () => null,
          )
        : null,
      patientId
        ? getPrimaryCoach(patientId, signal).then(
            (r) => r.data,
            () => null,
          )
        : null,
      code
        ? listPatientTokens({ where: { code }, limit: 1 }, signal).then(
            (r) => r.data[0] ?? null,
            () => null,
          )
        : null,
    ]);
    const contact = coach ?? (me ? await ownContact(me, signal) : null);
    return {
      data: {
        name: patient ? patientName(patient) : null,
        expiresAt: tokens?.expiresAt ?? null,
        coach: contact ? { name: [contact.title, coachName(contact)].filter(Boolean).join(' '), phone: contact.phone, email: contact.email } : null,
      },
    };
  }, `${code}:${patientId}`);

  if (!code) {
    return (
      <main className="print-page">
        <h1>{t('print.accessCodeTitle')}</h1>
        <p role="alert">{t('print.noCode')}</p>
      </main>
    );
  }
  const info = extras.data;
  return (
    <main className="print-page print-access-code">
      <PrintBar />
      <p className="print-brand">{instanceTitle()}</p>
      <h1>{t('print.accessCodeTitle')}</h1>
      {info?.name && <p className="print-for">{t('print.for', { name: info.name })}</p>}
      <CodeBlocks code={code} label={t('print.accessCodeTitle')} large />
      {info?.expiresAt && <p>{t('print.validUntil', { date: formatDate(info.expiresAt, { dateStyle: 'long' }) })}</p>}
      <h2>{t('print.howTo')}</h2>
      <ol className="print-steps">
        <li>{t('print.step1')}</li>
        <li>{t('print.step2')}</li>
        <li>{t('print.step3')}</li>
        <li>{t('print.step4')}</li>
      </ol>
      <AppDownload />
      <p>{t('print.keepSafe')}</p>
      {info?.coach && (
        <section className="print-contact">
          <h2>{t('print.questions')}</h2>
          <p>
            {t('print.yourCoach', { name: info.coach.name })}
            {info.coach.phone && (
              <>
                <br />
                {t('print.phone', { phone: info.coach.phone })}
              </>
            )}
            {info.coach.email && (
              <>
                <br />
                {t('print.email', { email: info.coach.email })}
              </>
            )}
          </p>
        </section>
      )}
    </main>
  );
}
