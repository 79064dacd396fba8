import './my-day.css';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { dayText } from '../../../components/AftercareBadge.tsx';
import { whenIdle } from '../../../lib/areas.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { patientName } from '../../../lib/names.ts';
import { user } from '../../../state/session.ts';
import type { Caseload } from '../load.ts';
import { patientLink } from '../more.ts';
import { Attention, type Flags } from './Attention.tsx';
import { BirthDate } from '../../../components/BirthDate.tsx';
import { type DayAppointment, appointmentsOfWeek, followUpsDue } from './day.ts';
import { lastOpenedReader } from '../../../lib/last-opened.ts';
import { newAppNotes } from './signals.ts';
import { checkWorsening, type WorseningCheck } from './worsening.ts';

/**
 * "Mein Tag": the patients needing attention, today's and this week's appointments and the follow-ups due, all
 * read from the caseload the dashboard has already loaded. Only the day evaluations need calls of their own; they
 * start once the dashboard has been drawn (my-day/worsening.ts).
 */
export function MyDay({ data, now }: { data: Caseload; now: Date }) {
  const coachId = user.value?.id ?? '';
  const notes = useMemo(() => newAppNotes(data.recentExternal, lastOpenedReader(coachId), now), [data, coachId, now]);
  const worsening = useWorsening(data.patients, now, coachId);
  const flags: Flags = { notes, ...worsening };
  return (
    <section aria-labelledby="my-day-heading" className="my-day">
      <h2 id="my-day-heading">
        {t('myDay.title')} <small className="muted">{formatDate(now, { weekday: 'long', day: 'numeric', month: 'long' })}</small>
      </h2>
      <div className="my-day-grid">
        <Attention data={data} now={now} flags={flags} />
        <Agenda patients={data.patients} now={now} />
      </div>
    </section>
  );
}

function useWorsening(patients: Patient[], now: Date, coachId: string): { worsening: WorseningCheck | null; checking: boolean } {
  const [state, setState] = useState<{ worsening: WorseningCheck | null; checking: boolean }>({ worsening: null, checking: true });
  useEffect(() => {
    const controller = new AbortController();
    const stop = whenIdle(() => {
      checkWorsening(patients, now, controller.signal, coachId).then(
        (worsening) => setState({ worsening, checking: false }),
        () => !controller.signal.aborted && setState({ worsening: null, checking: false }),
      );
    });
    return () => {
      stop();
      controller.abort();
    };
  }, [patients, now, coachId]);
  return state;
}

function AppointmentRow({ item, withDay }: { item: DayAppointment; withDay: boolean }) {
  const start = new Date(item.appointment.startsAt);
  return (
    <li>
      <span>
        <time dateTime={item.appointment.startsAt} className="my-day-time">
          {withDay ? formatDate(start, { weekday: 'short', hour: '2-digit', minute: '2-digit' }) : formatDate(start, { timeStyle: 'short' })}
        </time>{' '}
        <Link href={patientLink(item.patient.id, 'appointments')}>{patientName(item.patient)}</Link> <BirthDate birthDate={item.patient.birthDate} />
      </span>
      <small className="muted">{t(`patient.appointments.type.${item.appointment.type}`)}</small>
    </li>
  );
}

function AppointmentList({ items, withDay, empty }: { items: DayAppointment[]; withDay: boolean; empty: string }) {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="row-list">
      {items.map((item) => (
        <AppointmentRow key={`${item.patient.id}-${item.appointment.id}`} item={item} withDay={withDay} />
      ))}
    </ul>
  );
}

/** Today's and this week's appointments, then the follow-ups due. */
function Agenda({ patients, now }: { patients: Patient[]; now: Date }) {
  const week = appointmentsOfWeek(patients, now);
  const due = followUpsDue(patients, now);
  return (
    <section aria-labelledby="my-day-agenda-heading" className="card my-day-agenda">
      <h3 id="my-day-agenda-heading">{t('myDay.today')}</h3>
      <AppointmentList items={week.today} withDay={false} empty={t('myDay.none')} />
      <h3>{t('myDay.week')}</h3>
      <AppointmentList items={week.laterThisWeek} withDay empty={t('myDay.none')} />
      <h3>{t('myDay.followUps')}</h3>
      {due.length === 0 ? (
        <p className="muted">{t('myDay.none')}</p>
      ) : (
        <ul className="row-list">
          {due.map((p) => (
            <li key={p.id}>
              <span>
                <Link href={patientLink(p.id)}>{patientName(p)}</Link> <BirthDate birthDate={p.birthDate} />
              </span>
              <small className="muted">{t('myDay.since', { date: dayText(p.followUpAt ?? '') })}</small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
