import { useState, type ReactNode } from 'react';
import { DataState, listState } from '../../../components/DataState.tsx';
import { errorText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import type { Resource } from '../../../data/useQuery.ts';
import { t } from '../../../lib/i18n.ts';

interface Props<T extends { id: string }> {
  linked: Resource<T[]> & { reload: () => void };
  /** What may still be linked (already linked ones filtered out by the caller). */
  candidates: T[];
  selectId: string;
  /** Locale group with the keys unlink, add, choose, link and failed. */
  textGroup: 'patient.team' | 'patient.devices';
  emptyText: string;
  unlinkLabel: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  optionLabel: (item: T) => string;
  onLink: (id: string) => Promise<unknown>;
  onUnlink: (id: string) => Promise<unknown>;
  /** Whether this caller may link items and unlink this one (the server decides too); default: all. */
  canLink?: boolean;
  canUnlink?: (item: T) => boolean;
}

/**
 * What is linked to a patient (coaches, devices) with an unlink button per row and a select to link one more.
 * A failed change keeps the list and the choice as they were and says why.
 */
export function LinkedList<T extends { id: string }>(props: Props<T>) {
  const { linked, candidates, selectId, textGroup } = props;
  const [choice, setChoice] = useState('');
  const { busy, error, run } = useMutation();
  const change = (action: () => Promise<unknown>) =>
    run(async () => {
      await action();
      setChoice('');
      linked.reload();
    });

  return (
    <>
      <DataState {...listState(linked, props.emptyText)}>
        <ul className="row-list">
          {(linked.data ?? []).map((item) => (
            <li key={item.id}>
              <span>{props.renderItem(item)}</span>
              {(props.canUnlink?.(item) ?? true) && (
                <button
                  type="button"
                  className="secondary outline small"
                  disabled={busy}
                  aria-label={props.unlinkLabel(item)}
                  onClick={() => void change(() => props.onUnlink(item.id))}
                >
                  {t(`${textGroup}.unlink`)}
                </button>
              )}
            </li>
          ))}
        </ul>
      </DataState>
      {(props.canLink ?? true) && candidates.length > 0 && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (choice) void change(() => props.onLink(choice));
          }}
        >
          <label htmlFor={selectId}>{t(`${textGroup}.add`)}</label>
          <div className="inline-form-row">
            <select id={selectId} value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
              <option value="">{t(`${textGroup}.choose`)}</option>
              {candidates.map((item) => (
                <option key={item.id} value={item.id}>
                  {props.optionLabel(item)}
                </option>
              ))}
            </select>
            <button type="submit" disabled={!choice || busy}>
              {t(`${textGroup}.link`)}
            </button>
          </div>
        </form>
      )}
      {error !== null && (
        <p role="alert" className="inline-error">
          {t(`${textGroup}.failed`)} {errorText(error)}
        </p>
      )}
    </>
  );
}
