import { afterEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { ErrorBoundary } from './ErrorBoundary.tsx';

afterEach(() => vi.restoreAllMocks());

let shouldThrow = true;
function Fragile() {
  if (shouldThrow) throw new Error('kaputt');
  return <p>Seite da</p>;
}

test('a crashing page shows a message with a retry instead of a blank screen, and reports the error', () => {
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  shouldThrow = true;
  render(
    <ErrorBoundary>
      <Fragile />
    </ErrorBoundary>,
  );
  expect(screen.getByRole('alert').textContent).toContain('Diese Seite konnte nicht angezeigt werden');
  expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ message: 'kaputt' }));
  shouldThrow = false;
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  expect(screen.getByText('Seite da')).toBeTruthy();
});
