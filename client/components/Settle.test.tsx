import { afterEach, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { HOLD_MS, Settle } from './Settle.tsx';

afterEach(() => vi.useRealTimers());

const Section = ({ busy, text }: { busy: boolean; text: string }) => <p aria-busy={busy ? 'true' : undefined}>{text}</p>;

test('keeps the page hidden behind one loading line while any part of it is still loading, then shows it whole', async () => {
  const page = (busy: boolean, scope = '/information') => (
    <Settle scope={scope}>
      <h1>Hilfe</h1>
      <Section busy={false} text="Version" />
      <Section busy={busy} text="Unterlagen" />
    </Settle>
  );
  const { rerender } = render(page(true));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  expect(screen.getByText('Wird geladen …')).toBeTruthy();
  expect(screen.queryByRole('heading', { name: 'Hilfe' })).toBeNull();
  rerender(page(false));
  expect(await screen.findByRole('heading', { name: 'Hilfe' })).toBeTruthy();
  expect(screen.queryByText('Wird geladen …')).toBeNull();
  // A later load on the same page does not hide it again...
  rerender(page(true));
  expect(screen.getByRole('heading', { name: 'Hilfe' })).toBeTruthy();
  // ...the next page does.
  rerender(page(true, '/settings'));
  expect(screen.queryByRole('heading', { name: 'Hilfe' })).toBeNull();
  expect(screen.getByText('Wird geladen …')).toBeTruthy();
});

test(`shows the page after ${HOLD_MS} ms even if a part is still loading`, async () => {
  vi.useFakeTimers();
  render(
    <Settle scope="/stats">
      <h1>Controlling</h1>
      <Section busy text="Tabelle" />
    </Settle>,
  );
  expect(screen.queryByRole('heading', { name: 'Controlling' })).toBeNull();
  await vi.advanceTimersByTimeAsync(HOLD_MS);
  expect(screen.getByRole('heading', { name: 'Controlling' })).toBeTruthy();
});
