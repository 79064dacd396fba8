import { useId, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { t } from '../../lib/i18n.ts';

interface Props {
  title: string;
  submitLabel: string;
  busy: boolean;
  /** Why the last save failed; what was typed stays in the fields. */
  error: string | null;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** A modal form: Enter or the submit button saves, Escape or Cancel closes without saving. */
export function FormDialog({ title, submitLabel, busy, error, onSubmit, onClose, children }: Props) {
  const formId = useId();
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      actions={
        <div className="button-row">
          <button type="button" className="secondary outline" onClick={onClose}>
            {t('admin.cancel')}
          </button>
          <button type="submit" form={formId} disabled={busy} aria-busy={busy}>
            {submitLabel}
          </button>
        </div>
      }
    >
      <form
        id={formId}
        noValidate
        className="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) onSubmit();
        }}
      >
        {children}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
