import { Link } from 'wouter';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { patientName } from '../../../lib/names.ts';
import type { Caseload } from '../load.ts';
import { allText, moreThanShown, patientLink } from '../more.ts';
import { Worklist } from '../worklist/Worklist.tsx';
import { BirthDate } from '../../../components/BirthDate.tsx';
import { RuleHelp } from './RuleHelp.tsx';
import type { NewNotes, Worsening } from './signals.ts';
import type { WorseningCheck } from './worsening.ts';

export interface Flags {
  notes: Map<string, NewNotes>;
  /** null while the day evaluations are being read (or could not be). */
  worsening: WorseningCheck | null;
  checking: boolean;
}

const one = (value: number) => formatNumber(value, { maximumFractionDigits: 1, minimumFractionDigits: 1 });

function reasons(id: string, flags: Flags): string[] {
  const found: string[] = [];
  const notes = flags.notes.get(id);
  if (notes) found.push(notes.count === 1 ? t('myDay.newNote') : `${t('myDay.newNote')} (${formatNumber(notes.count)})`);
  const fall: Worsening | undefined = flags.worsening?.flagged.get(id);
  if (fall) found.push(t('myDay.worsening', { recent: one(fall.recent), before: one(fall.before) }));
  return found;
}

/** Patients flagged by a new app note or a falling day evaluation, each with why; those with a new note first. */
function Flagged({ patients, flags }: { patients: Patient[]; flags: Flags }) {
  const rows = patients.map((p) => ({ p, why: reasons(p.id, flags) })).filter((row) => row.why.length > 0);
  if (rows.length === 0) return null;
  return (
    <ul className="row-list my-day-flagged">
      {rows.map(({ p, why }) => (
        <li key={p.id}>
          <span>
            <Link href={patientLink(p.id, flags.notes.has(p.id) ? 'comments' : 'data')}>{patientName(p)}</Link> <BirthDate birthDate={p.birthDate} />
          </span>
          <span className="my-day-reasons">
            {why.map((text) => (
              <span key={text} className="badge my-day-reason">
                {text}
              </span>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}

function CheckStatus({ flags }: { flags: Flags }) {
  const check = flags.worsening;
  const text = flags.checking ? t('common.loading') : check ? t('myDay.checked', { n: check.checked, of: check.candidates }) : t('myDay.failed');
  return (
    <p className="muted my-day-check" aria-live="polite">
      <small>{text}</small>
    </p>
  );
}

/** "Brauchen Aufmerksamkeit": the new signals with their reasons, then the patients without recent data as a worklist. */
export function Attention({ data, now, flags }: { data: Caseload; now: Date; flags: Flags }) {
  const flaggedFirst = [...data.patients].sort((a, b) => Number(!flags.notes.has(a.id)) - Number(!flags.notes.has(b.id)));
  return (
    <section aria-labelledby="attention-heading" className="card dashboard-attention">
      <h3 id="attention-heading">{t('dashboard.attention.title')}</h3>
      <p className="muted">{t('dashboard.attention.hint')}</p>
      <RuleHelp />
      <Flagged patients={flaggedFirst} flags={flags} />
      <CheckStatus flags={flags} />
      {data.attention.length === 0 ? (
        <p className="data-state data-state-empty">{t('dashboard.attention.empty')}</p>
      ) : (
        // The start of the day: one click records a call, a follow-up day takes the patient off the list.
        <Worklist patients={data.attention} now={now} />
      )}
      {moreThanShown(data.attentionTotal, data.attention.length) && (
        <p>
          <Link href="/patient?status=active&sort=lastDataAt">{allText('dashboard.attention.all', data.attentionTotal)}</Link>
        </p>
      )}
    </section>
  );
}
