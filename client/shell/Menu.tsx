import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface MenuProps {
  /** Accessible name of the button. */
  label: string;
  /** Pico tooltip text (CSS only). */
  tooltip?: string;
  button: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A button that opens a list of menu items; closes on selection, outside click and Escape. */
export function Menu({ label, tooltip, button, children, className }: MenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault(); // this Escape belongs to the menu, not to the sidebar behind it
        setOpen(false);
        root.current?.querySelector<HTMLElement>('button')?.focus();
        return;
      }
      // Arrow keys move between the items, as the ARIA menu pattern expects.
      const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
      if (!step) return;
      const items = [...(root.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
      if (!items.length) return;
      event.preventDefault();
      const current = items.indexOf(document.activeElement as HTMLElement);
      items[(current + step + items.length) % items.length].focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey, true);
    root.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  return (
    <div className={className ? `menu ${className}` : 'menu'} ref={root}>
      <button
        type="button"
        className="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={label}
        data-tooltip={open ? undefined : tooltip}
        data-placement="bottom"
        onClick={() => setOpen(!open)}
      >
        {button}
      </button>
      {open ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the click closes the menu after an item's own button ran; keys are handled by those buttons
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the list is the ARIA menu; its items are the buttons inside
        <ul id={listId} role="menu" aria-label={label} className="menu-list" onClick={() => setOpen(false)}>
          {children}
        </ul>
      ) : null}
    </div>
  );
}
