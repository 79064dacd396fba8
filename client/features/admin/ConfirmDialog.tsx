import { Dialog } from '../../components/Dialog.tsx';
import { errorText } from '../../components/errorText.ts';
import { useMutation } from '../../data/useMutation.ts';
import { t } from '../../lib/i18n.ts';

interface Props {
  title: string;
  text: string;
  confirmLabel: string;
  /** Runs the action; the dialog stays open with the reason when it fails. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** What a failure says; the general sentence for a failed call unless the caller knows better. */
  describeError?: (failure: unknown) => string;
}

/** "Really delete?" - the action runs only after an explicit confirmation; Escape or Cancel do nothing. */
export function ConfirmDialog({ title, text, confirmLabel, onConfirm, onClose, describeError = errorText }: Props) {
  const { busy, error, run } = useMutation(describeError);
  return (
    <Dialog
      open
      role="alertdialog"
      type="warning"
      title={title}
      onClose={onClose}
      actions={
        <div className="button-row">
          <button type="button" className="secondary outline" autoFocus onClick={onClose}>
            {t('admin.cancel')}
          </button>
          <button type="button" className="danger" disabled={busy} aria-busy={busy} onClick={() => void run(onConfirm)}>
            {confirmLabel}
          </button>
        </div>
      }
    >
      <p>{text}</p>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </Dialog>
  );
}
