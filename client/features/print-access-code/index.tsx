import '../../components/records.css';
import '../../components/print.css';
import type { ReactNode } from 'react';
import { useSearch } from 'wouter';
import { getPatient, getPrimaryCoach } from '../../api/patients.ts';
import { listPatientTokens } from '../../api/patient-tokens.ts';
import { getCoach } from '../../api/coaches.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import type { PatientToken } from '../../../contract/schemas/patient-tokens.ts';
import { CodeBlocks } from '../../components/CodeBlocks.tsx';
import { PrintBar } from '../../components/PrintBar.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { instanceTitle } from '../../lib/instance-title.ts';
import { user } from '../../state/session.ts';
import { coachName, patientName } from '../../lib/names.ts';
import { AppDownload } from './AppDownload.tsx';

type Contact = Pick<Coach, 'firstName' | 'lastName' | 'title' | 'phone' | 'email'>;

interface Sheet {
  /** The code as the server knows it; null when it knows no such code (for this patient). */
  token: PatientToken | null;
  name: string | null;
  coach: { name: string; phone: string; email: string } | null;
}

const EMPTY: Sheet = { token: null, name: null, coach: null };

const quietly = <T,>(request: Promise<{ data: T }>) =>
  request.then(
    (r) => r.data,
    () => null,
  );

/** The signed-in coach's card with their phone; their name and e-mail alone when the account cannot be read. */
async function ownContact(me: Me, signal: AbortSignal): Promise<Contact> {
  const fallback = { firstName: me.firstName, lastName: me.lastName, title: '', phone: '', email: me.email };
  return getCoach(me.id, signal).then(
    ({ data }) => ({ firstName: data.firstName, lastName: data.lastName, title: data.title, phone: data.phone, email: data.email }),
    () => fallback,
  );
}

/**
 * The code is printed only when the server confirms it: the token list answers a token with exactly this code and,
 * when the address names a patient, of that patient. Otherwise anyone could send a link that prints any text as an
 * access code under this coach's name and practice.
 */
async function loadSheet(code: string, patientId: string, me: Me | null, signal: AbortSignal): Promise<{ data: Sheet }> {
  const [tokens, patient, coach] = await Promise.all([
    listPatientTokens({ where: { code }, limit: 1 }, signal),
    patientId ? quietly(getPatient(patientId, signal)) : null,
    patientId ? quietly(getPrimaryCoach(patientId, signal)) : null,
  ]);
  const token = tokens.data.find((found) => found.code === code && (!patientId || found.patientId === patientId)) ?? null;
  const contact = coach ?? (me ? await ownContact(me, signal) : null);
  return {
    data: {
      token,
      name: patient ? patientName(patient) : null,
      coach: contact ? { name: [contact.title, coachName(contact)].filter(Boolean).join(' '), phone: contact.phone, email: contact.email } : null,
    },
  };
}

/** The page while the code is unconfirmed: a heading and what stands instead of the code. */
function Unconfirmed({ children }: { children: ReactNode }) {
  return (
    <main className="print-page">
      <h1>{t('print.accessCodeTitle')}</h1>
      {children}
    </main>
  );
}

/**
 * The sheet a patient takes home: the code in large blocks and, in German, how to use it. The code comes from
 * the URL and is shown once the server has confirmed it; name and the coach's contact are added when they can
 * be read, and the sheet still prints without them.
 */
export default function PrintAccessCodePage() {
  const params = new URLSearchParams(useSearch());
  const code = (params.get('code') ?? '').slice(0, 64);
  const patientId = params.get('patientId') ?? '';
  const me = user.value;
  const sheet = useQuery<Sheet>((signal) => (code ? loadSheet(code, patientId, me, signal) : Promise.resolve({ data: EMPTY })), `${code}:${patientId}`);

  if (!code) {
    return (
      <Unconfirmed>
        <p role="alert">{t('print.noCode')}</p>
      </Unconfirmed>
    );
  }
  if (sheet.status === 'error') {
    return (
      <Unconfirmed>
        <p role="alert">{t('print.checkFailed')}</p>
        <button type="button" className="no-print" onClick={sheet.reload}>
          {t('dataState.retry')}
        </button>
      </Unconfirmed>
    );
  }
  if (sheet.status === 'loading') {
    return (
      <Unconfirmed>
        <p role="status">{t('print.checking')}</p>
      </Unconfirmed>
    );
  }
  if (!sheet.data.token) {
    return (
      <Unconfirmed>
        <p role="alert">{t('print.unknownCode')}</p>
      </Unconfirmed>
    );
  }
  return <ConfirmedSheet info={{ ...sheet.data, token: sheet.data.token }} />;
}

/** The sheet itself, for a code the server confirmed (its text is the token's, not the address's). */
function ConfirmedSheet({ info }: { info: Sheet & { token: PatientToken } }) {
  return (
    <main className="print-page print-access-code">
      <PrintBar />
      <p className="print-brand">{instanceTitle()}</p>
      <h1>{t('print.accessCodeTitle')}</h1>
      {info.name && <p className="print-for">{t('print.for', { name: info.name })}</p>}
      <CodeBlocks code={info.token.code} label={t('print.accessCodeTitle')} large />
      <p>{t('print.validUntil', { date: formatDate(info.token.expiresAt, { dateStyle: 'long' }) })}</p>
      <h2>{t('print.howTo')}</h2>
      <ol className="print-steps">
        <li>{t('print.step1')}</li>
        <li>{t('print.step2')}</li>
        <li>{t('print.step3')}</li>
        <li>{t('print.step4')}</li>
      </ol>
      <AppDownload />
      <p>{t('print.keepSafe')}</p>
      {info.coach && (
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
