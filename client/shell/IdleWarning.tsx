import { effect } from '@preact/signals-react';
import { render } from 'react-dom';
import { Dialog } from '../components/Dialog.tsx';
import { t } from '../lib/i18n.ts';
import { isAuthenticated } from '../state/session.ts';
import { secondsLeft, stayActive } from '../state/idle.ts';

/** 105 -> "1:45". */
export function countdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The warning before the idle logout: it interrupts (alertdialog, focus on its one button) and counts down. Escape
 * answers it like the button: the coach is there. The countdown is a timer, which screen readers do not announce
 * every second; the text is read once as the dialog opens.
 */
export function IdleWarning() {
  const left = secondsLeft.value;
  const open = isAuthenticated.value && left !== null;
  return (
    <Dialog
      open={open}
      role="alertdialog"
      type="warning"
      title={t('idle.title')}
      onClose={stayActive}
      actions={
        <button type="button" autoFocus onClick={stayActive}>
          {t('idle.stay')}
        </button>
      }
    >
      <p role="timer">{t('idle.warning', { time: countdown(left ?? 0) })}</p>
    </Dialog>
  );
}

/** Renders the warning in a root of its own the first time it is needed, above whatever page is showing. */
export function mountIdleWarning(): () => void {
  let host: HTMLElement | null = null;
  return effect(() => {
    if (host || secondsLeft.value === null) return;
    host = document.createElement('div');
    document.body.append(host);
    render(<IdleWarning />, host);
  });
}
