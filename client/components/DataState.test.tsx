import { expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { DataState } from './DataState.tsx';
import { ApiError } from '../data/http.ts';
import { codeBlocks } from './CodeBlocks.tsx';
import { Pager } from './Pager.tsx';

test('an error says what went wrong in German and retries on request', () => {
  const retry = vi.fn();
  render(<DataState status="error" error={new ApiError(503, 'HTTP_503', 'x')} onRetry={retry} />);
  expect(screen.getByRole('alert').textContent).toContain('Der Server antwortet gerade nicht');
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  expect(retry).toHaveBeenCalledOnce();
});

test('a network failure is told apart from a server failure', () => {
  render(<DataState status="error" error={new ApiError(0, 'NETWORK_ERROR', 'x')} />);
  expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
});

test('empty data shows the empty text instead of the content', () => {
  render(
    <DataState status="ready" empty emptyText="Keine Patienten">
      <p>content</p>
    </DataState>,
  );
  expect(screen.getByText('Keine Patienten')).toBeTruthy();
  expect(screen.queryByText('content')).toBeNull();
});

test('while reloading, content that is already there stays visible', () => {
  render(
    <DataState status="loading" hasData>
      <p>content</p>
    </DataState>,
  );
  expect(screen.getByText('content')).toBeTruthy();
});

test('codes keep the server grouping, or are cut into blocks of four', () => {
  expect(codeBlocks('k7qm-3rtx-9hpa-w')).toEqual(['K7QM', '3RTX', '9HPA', 'W']);
  expect(codeBlocks('ABCDEFGHJ')).toEqual(['ABCD', 'EFGH', 'J']);
});

test('the pager shows the range and stops at both ends', () => {
  const onPage = vi.fn();
  const { unmount } = render(<Pager page={0} pageSize={20} count={{ count: 45, exact: true }} shown={20} onPage={onPage} />);
  expect(screen.getByText('1–20 von 45')).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Zurück' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
  expect(onPage).toHaveBeenCalledWith(1);
  unmount();
  render(<Pager page={2} pageSize={20} count={{ count: 45, exact: true }} shown={5} onPage={onPage} />);
  expect(screen.getByText('41–45 von 45')).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
});

test('without a total the pager says "mehr als" and keeps "Weiter" open', () => {
  const onPage = vi.fn();
  render(<Pager page={1} pageSize={20} count={{ count: 40, exact: false }} shown={20} onPage={onPage} />);
  expect(screen.getByText('21–40 von mehr als 40')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
  expect(onPage).toHaveBeenCalledWith(2);
});
