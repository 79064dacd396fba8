import { describe, expect, test } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { showAlert } from './Dialog.tsx';

describe('showAlert', () => {
  test('opens a modal alert dialog with title and text, focused on OK, and resolves when closed', async () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    let closed = false;
    const done = showAlert({ type: 'error', title: 'Fehler', text: 'Etwas ging schief' }).then(() => (closed = true));
    const dialog = await screen.findByRole('alertdialog', { name: 'Fehler' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByText('Etwas ging schief').closest('[id]')?.id).toBe(dialog.getAttribute('aria-describedby'));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'OK' }));
    expect(closed).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await done;
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  test('Escape (the dialog closing itself) also resolves it', async () => {
    const done = showAlert({ type: 'info', title: 'Hinweis', text: 'Text' });
    const dialog = (await screen.findByRole('alertdialog', { name: 'Hinweis' })) as HTMLDialogElement;
    dialog.dispatchEvent(new Event('close'));
    await done;
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});
