import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { patientListName } from '../../lib/names.ts';
import { t } from '../../lib/i18n.ts';
import { BirthDate } from '../BirthDate.tsx';
import { isTouchFirst } from '../../lib/pointer.ts';
import { usePatientSearch } from './usePatientSearch.ts';
import './patient-search.css';

const patientHref = (p: Patient) => `/patient/${encodeURIComponent(p.id)}`;

interface Props {
  /** Id of the input (the label points at it). */
  id: string;
  autoFocus?: boolean;
  /** Called when a result is opened (the quick search closes itself). */
  onOpen?: () => void;
}

/**
 * Search a patient by name, code or phone as you type (the quick search behind "/", the dashboard). The results are
 * links: Arrow Down moves from the field into them, Arrow Up and Down between them, Escape back to the field; Enter
 * in the field opens the first. A status line says what was found, for screen readers too.
 */
export function PatientSearchBox({ id, autoFocus, onOpen }: Props) {
  const [text, setText] = useState('');
  const search = usePatientSearch(text);
  const [, navigate] = useLocation();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const links = () => Array.from(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? []);
  const current = search.query === text.trim();
  const shown = text.trim() ? search.results : [];

  const open = (patient: Patient) => {
    onOpen?.();
    navigate(patientHref(patient));
  };
  const onFieldKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && shown.length) {
      event.preventDefault();
      links()[0]?.focus();
    } else if (event.key === 'Enter' && current && shown.length) {
      event.preventDefault();
      open(shown[0]);
    }
  };
  const onResultKey = (event: KeyboardEvent<HTMLAnchorElement>) => moveAmongResults(event, links(), input.current);

  const status = statusText(text.trim() !== '', current, search.status, shown.length, search.more);

  return (
    <div className="patient-search">
      <label htmlFor={id}>{t('search.label')}</label>
      <input
        ref={input}
        id={id}
        type="search"
        value={text}
        autoComplete="off"
        spellcheck={false}
        autoFocus={autoFocus}
        placeholder={t('search.placeholder')}
        aria-describedby={`${id}-status`}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        onKeyDown={onFieldKey}
      />
      <p id={`${id}-status`} className="patient-search-status muted" role="status">
        {status}
      </p>
      {shown.length > 0 && (
        <ul ref={list} className="patient-search-results" aria-label={t('search.resultsLabel')} aria-busy={!current || search.status === 'loading'}>
          {shown.map((p) => (
            <li key={p.id}>
              <Link href={patientHref(p)} onClick={() => onOpen?.()} onKeyDown={onResultKey}>
                <span className="patient-search-name">{patientListName(p)}</span>
                <BirthDate birthDate={p.birthDate} />
                <code>{p.patientCode}</code>
                {p.phone && <span className="patient-search-phone">{p.phone}</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {current && search.more && (
        <p className="patient-search-more">
          <Link href={`/patient?q=${encodeURIComponent(text.trim())}`} onClick={() => onOpen?.()}>
            {t('search.all')}
          </Link>
        </p>
      )}
    </div>
  );
}

/**
 * Arrow Up and Down between the result links (up from the first: back to the field), Home and End to the ends, and
 * Escape back to the field; a second Escape there closes the quick search (the dialog's own behaviour).
 */
function moveAmongResults(event: KeyboardEvent<HTMLAnchorElement>, all: HTMLAnchorElement[], field: HTMLInputElement | null): void {
  const at = all.indexOf(event.currentTarget);
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const next = at + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) field?.focus();
    else all[Math.min(next, all.length - 1)]?.focus();
  } else if (event.key === 'Home' || event.key === 'End') {
    event.preventDefault();
    all[event.key === 'Home' ? 0 : all.length - 1]?.focus();
  } else if (event.key === 'Escape') {
    event.preventDefault();
    event.stopPropagation();
    field?.focus();
  }
}

/** The status line: a hint before typing (not on touch screens), then searching, failed, none, or how many. */
function statusText(typed: boolean, current: boolean, status: string, found: number, more: boolean): string {
  if (!typed) return isTouchFirst() ? '' : t('search.hint');
  if (status === 'error' && current) return t('search.failed');
  if (!current || status === 'loading') return t('search.searching');
  if (found === 0) return t('search.none');
  return more ? t('search.many', { n: found }) : t('search.found', { n: found });
}
