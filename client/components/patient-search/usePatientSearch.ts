import { useEffect, useState } from 'react';
import { isAbortError } from '../../data/http.ts';
import { listPatients } from '../../api/patients.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { patientSearchWhere } from './search-where.ts';

export interface PatientSearch {
  /** The text the results belong to. */
  query: string;
  status: 'idle' | 'loading' | 'ready' | 'error';
  results: Patient[];
  /** More patients match than are shown. */
  more: boolean;
}

/** How long typing must pause before a search is sent. */
export const SEARCH_DELAY_MS = 200;
export const SEARCH_LIMIT = 8;

/**
 * Searches as the person types: one list call after a short pause, and a newer text aborts the call of an older one,
 * so a slow answer never replaces the results of what was typed later. While a search runs the previous results stay.
 */
export function usePatientSearch(text: string): PatientSearch {
  const [state, setState] = useState<PatientSearch>({ query: '', status: 'idle', results: [], more: false });
  useEffect(() => {
    const query = text.trim();
    const where = patientSearchWhere(query);
    if (!where) {
      setState({ query: '', status: 'idle', results: [], more: false });
      return;
    }
    setState((s) => ({ ...s, status: 'loading' }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      // One more than shown tells whether there are more, without X-Total-Count.
      listPatients({ where, order: ['lastName ASC', 'firstName ASC', 'id ASC'], limit: SEARCH_LIMIT + 1 }, controller.signal).then(
        ({ data }) => {
          if (!controller.signal.aborted) setState({ query, status: 'ready', results: data.slice(0, SEARCH_LIMIT), more: data.length > SEARCH_LIMIT });
        },
        (error: unknown) => {
          if (controller.signal.aborted || isAbortError(error)) return;
          setState({ query, status: 'error', results: [], more: false });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);
  return state;
}
