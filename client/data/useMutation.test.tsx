import { expect, test } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { useMutation } from './useMutation.ts';

class Shown extends Error {}

/** A button that sends what `send` does; the test holds each request open until it settles it. */
function Sender({ send, onResult }: { send: () => Promise<unknown>; onResult: (ok: boolean) => void }) {
  const action = useMutation((failure) => (failure instanceof Shown ? null : `Fehler: ${(failure as Error).message}`));
  return (
    <>
      <button type="button" disabled={action.busy} aria-busy={action.busy} onClick={() => void action.run(send).then(onResult)}>
        Senden
      </button>
      {/* Two starts before the disabled state can render, as a double click on a slow device gives. */}
      <button type="button" onClick={() => [action.run(send), action.run(send)].forEach((started) => void started.then(onResult))}>
        Doppelt
      </button>
      <button type="button" onClick={() => action.fail('Bitte wählen')}>
        Prüfen
      </button>
      <button type="button" onClick={action.clear}>
        Leeren
      </button>
      {action.error !== null && <p role="alert">{action.error}</p>}
    </>
  );
}

function deferred() {
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...settle };
}

test('is busy while the request runs, keeps a failure until the next start, and says whether it succeeded', async () => {
  const requests: ReturnType<typeof deferred>[] = [];
  const results: boolean[] = [];
  render(
    <Sender
      send={() => {
        requests.push(deferred());
        return requests.at(-1)!.promise;
      }}
      onResult={(ok) => results.push(ok)}
    />,
  );
  const button = screen.getByRole('button', { name: 'Senden' }) as HTMLButtonElement;

  fireEvent.click(button);
  await waitFor(() => expect(button.disabled).toBe(true));
  requests[0].reject(new Error('offline'));
  await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Fehler: offline'));
  expect(button.disabled).toBe(false);
  expect(results).toEqual([false]);

  fireEvent.click(button);
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull()); // a new attempt removes the old message
  requests[1].resolve();
  await waitFor(() => expect(results).toEqual([false, true]));
  expect(button.disabled).toBe(false);
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a second start while one runs is not sent', async () => {
  let sent = 0;
  const open = deferred();
  const results: boolean[] = [];
  render(
    <Sender
      send={() => {
        sent += 1;
        return open.promise;
      }}
      onResult={(ok) => results.push(ok)}
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Doppelt' }));
  open.resolve();
  await waitFor(() => expect(results).toHaveLength(2));
  expect(sent).toBe(1);
  expect(results.sort()).toEqual([false, true]);
});

test('a failure that something else shows leaves no message; fail and clear show and remove a check', async () => {
  const results: boolean[] = [];
  render(<Sender send={() => Promise.reject(new Shown('conflict'))} onResult={(ok) => results.push(ok)} />);
  fireEvent.click(screen.getByRole('button', { name: 'Senden' }));
  await waitFor(() => expect(results).toEqual([false]));
  expect(screen.queryByRole('alert')).toBeNull();

  fireEvent.click(screen.getByRole('button', { name: 'Prüfen' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Bitte wählen');
  fireEvent.click(screen.getByRole('button', { name: 'Leeren' }));
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
});
