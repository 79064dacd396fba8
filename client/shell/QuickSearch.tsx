import { signal } from '@preact/signals-react';
import { useEffect } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { Icon } from '../components/Icon.tsx';
import { PatientSearchBox } from '../components/patient-search/PatientSearchBox.tsx';
import { t } from '../lib/i18n.ts';

/** Keys typed into a field, a list or an editable area are text, not shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.tagName) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  return !['button', 'checkbox', 'radio', 'reset', 'submit', 'file', 'image', 'range', 'color'].includes((el as HTMLInputElement).type);
}

/** Open or closed; the top bar's button and the "/" key both open it. */
const searchOpen = signal(false);

/** The top bar's way into the search: the only one on a phone, which has no "/" key at hand. */
export function QuickSearchButton() {
  return (
    <button type="button" className="icon-button" aria-label={t('search.title')} aria-haspopup="dialog" onClick={() => (searchOpen.value = true)}>
      <Icon name="search" />
    </button>
  );
}

/**
 * Any patient in two keystrokes: "/" on any screen of the shell opens a search over name, code and phone (docs/product.md's
 * menus stay as they are; the dashboard and the patient list have the same search on the page). It does not open
 * while the person types somewhere, or while another dialog is open.
 */
export function QuickSearch() {
  const open = searchOpen.value;
  const setOpen = (value: boolean) => {
    searchOpen.value = value;
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      searchOpen.value = true;
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      // Leaving the shell (signing out) closes it: the next session does not start inside a search.
      searchOpen.value = false;
    };
  }, []);

  return (
    <Dialog
      open={open}
      title={t('search.title')}
      onClose={() => setOpen(false)}
      actions={
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          {t('search.close')}
        </button>
      }
    >
      {/* A new box each time: the last search does not greet the next one. */}
      {open && <PatientSearchBox id="quick-search" autoFocus onOpen={() => setOpen(false)} />}
    </Dialog>
  );
}
