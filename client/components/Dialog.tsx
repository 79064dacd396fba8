import { useEffect, useRef, useState, type ReactNode } from 'react';
import { render } from 'react-dom';
import { t } from '../lib/i18n.ts';

let dialogCount = 0;

export type AlertType = 'info' | 'success' | 'warning' | 'error';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  /** Buttons for the footer. */
  actions?: ReactNode;
  type?: AlertType;
  /** 'alertdialog' for messages that interrupt (alerts), 'dialog' otherwise. */
  role?: 'dialog' | 'alertdialog';
}

/**
 * An accessible modal: a native <dialog> opened with showModal(), so the page behind is inert, focus moves
 * into the dialog and Escape closes it. Focus returns to where it was when the dialog closes.
 */
export function Dialog({ open, title, onClose, children, actions, type = 'info', role = 'dialog' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  // Not useId(): alerts render in their own root, where useId() repeats ids of the page behind.
  const [n] = useState(() => ++dialogCount);
  const titleId = `dialog-${n}-title`;
  const bodyId = `dialog-${n}-body`;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      returnFocus.current = document.activeElement as HTMLElement | null;
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
      el.querySelector<HTMLElement>('[autofocus], button, [href], input, select, textarea')?.focus();
    } else if (!open && el.open) {
      if (typeof el.close === 'function') el.close();
      else el.removeAttribute('open');
      returnFocus.current?.focus?.();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      className={`dialog dialog-${type}`}
      onClose={() => {
        if (open) onClose();
      }}
    >
      <article>
        <header>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
        </header>
        <div id={bodyId}>{children}</div>
        {actions ? <footer>{actions}</footer> : null}
      </article>
    </dialog>
  );
}

export interface AlertOptions {
  type: AlertType;
  title: string;
  text: string;
}

function AlertDialog({ type, title, text, onDone }: AlertOptions & { onDone: () => void }) {
  return (
    <Dialog
      open
      role="alertdialog"
      type={type}
      title={title}
      onClose={onDone}
      actions={
        <button type="button" autoFocus onClick={onDone}>
          {t('common.ok')}
        </button>
      }
    >
      <p>{text}</p>
    </Dialog>
  );
}

/** Show a modal alert; resolves when the person has closed it (OK button or Escape). */
export function showAlert(options: AlertOptions): Promise<void> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    const previous = document.activeElement as HTMLElement | null;
    let closed = false;
    const done = () => {
      if (closed) return;
      closed = true;
      render(null, host);
      host.remove();
      previous?.focus?.();
      resolve();
    };
    render(<AlertDialog {...options} onDone={done} />, host);
  });
}
