import { t } from '../lib/i18n.ts';
import './conflict.css';

export interface ChangedField {
  label: string;
  /** The other person's value, as text. */
  theirs: string;
}

interface Props {
  /** What the other change did, field by field (empty: the record was changed in ways this form does not show). */
  changes: ChangedField[];
  /** Replace what was typed with the other version. */
  onTakeTheirs: () => void;
  /** Save what was typed over the other version. Without it, inside a form, the keep button submits the form. */
  onKeepMine?: () => void;
  /** For a deletion: delete anyway. */
  keepLabel?: string;
  busy?: boolean;
}

/**
 * Shown after a 412: someone else saved this record since it was opened. What the person typed stays in the
 * form; this box says what the other change was and lets them keep theirs (saved over it, knowingly) or take
 * the other one, rather than one of the two changes being lost unseen.
 */
export function ConflictNotice({ changes, onTakeTheirs, onKeepMine, keepLabel, busy }: Props) {
  return (
    <div role="alert" className="conflict-notice">
      <p>
        <strong>{t('conflict.title')}</strong> {t('conflict.text')}
      </p>
      {changes.length > 0 ? (
        <dl className="conflict-changes">
          {changes.map((change) => (
            <div key={change.label}>
              <dt>{change.label}</dt>
              <dd>{change.theirs || t('conflict.empty')}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>{t('conflict.noVisibleChange')}</p>
      )}
      <div className="form-actions">
        <button type={onKeepMine ? 'button' : 'submit'} onClick={onKeepMine} disabled={busy} aria-busy={busy}>
          {keepLabel ?? t('conflict.keepMine')}
        </button>
        <button type="button" className="secondary outline" onClick={onTakeTheirs} disabled={busy}>
          {t('conflict.takeTheirs')}
        </button>
      </div>
    </div>
  );
}

/** The fields whose text differs between two versions, as ChangedField (label, the other version's text). */
export function changedFields<T>(mine: T, theirs: T, fields: { label: string; text: (value: T) => string }[]): ChangedField[] {
  return fields.filter((f) => f.text(mine) !== f.text(theirs)).map((f) => ({ label: f.label, theirs: f.text(theirs) }));
}
