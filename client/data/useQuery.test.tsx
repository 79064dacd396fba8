import { afterEach, describe, expect, test, vi } from 'vitest';
import { act, render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { cancelWaiting, SHOW_LOADING_AFTER_MS, showWhenLoaded, useQuery, type Loaded } from './useQuery.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A load whose answer the test gives, and the signals it was asked with. */
function controlledLoad() {
  const calls: { signal: AbortSignal; answer: (rows: string[]) => void }[] = [];
  const load = vi.fn(
    (signal: AbortSignal) =>
      new Promise<Loaded<string[]>>((resolve) => {
        calls.push({ signal, answer: (rows) => resolve({ data: rows }) });
      }),
  );
  return { load, calls };
}

/** A screen showing a query's rows and status, whose key the test changes through showWhenLoaded. */
function Screen({
  load,
  onChange,
}: {
  load: (key: string) => (signal: AbortSignal) => Promise<Loaded<string[]>>;
  onChange: (go: (key: string) => void) => void;
}) {
  const [key, setKey] = useState('a');
  const query = useQuery(load(key), key);
  onChange((next) => showWhenLoaded(next, load(next), () => setKey(next)));
  return (
    <p data-testid="screen">
      {key}: {query.status} {(query.data ?? []).join(',')}
    </p>
  );
}

async function mount() {
  const byKey = new Map<string, ReturnType<typeof controlledLoad>>();
  const loadOf = (key: string) => {
    if (!byKey.has(key)) byKey.set(key, controlledLoad());
    return byKey.get(key)!;
  };
  let go: (key: string) => void = () => {};
  render(<Screen load={(key) => loadOf(key).load} onChange={(g) => (go = g)} />);
  await act(async () => loadOf('a').calls[0].answer(['a1']));
  expect(screen.getByTestId('screen').textContent).toBe('a: ready a1');
  return { loadOf, change: (key: string) => act(() => go(key)) };
}

describe('showWhenLoaded', () => {
  test('asks at once, shows the change only with its answer, and the screen asks no second time', async () => {
    vi.useFakeTimers();
    const { loadOf, change } = await mount();
    await change('b');
    expect(loadOf('b').load).toHaveBeenCalledTimes(1);
    // Until the answer comes, the screen stays as it was: no drawing for a loading state.
    expect(screen.getByTestId('screen').textContent).toBe('a: ready a1');
    await act(async () => loadOf('b').calls[0].answer(['b1']));
    // The answer's turn shows the change; the screen reads the answer a turn later (one task in a browser).
    await act(async () => {});
    expect(screen.getByTestId('screen').textContent).toBe('b: ready b1');
    expect(loadOf('b').load).toHaveBeenCalledTimes(1);
    expect(loadOf('b').calls[0].signal.aborted).toBe(false);
  });

  test('a slow answer: the change is shown loading after SHOW_LOADING_AFTER_MS, the earlier rows still there', async () => {
    vi.useFakeTimers();
    const { loadOf, change } = await mount();
    await change('b');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SHOW_LOADING_AFTER_MS - 1);
    });
    expect(screen.getByTestId('screen').textContent).toBe('a: ready a1');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByTestId('screen').textContent).toBe('b: loading a1');
    await act(async () => loadOf('b').calls[0].answer(['b1']));
    expect(screen.getByTestId('screen').textContent).toBe('b: ready b1');
    expect(loadOf('b').load).toHaveBeenCalledTimes(1);
  });

  test('a later change cancels the earlier one, which is never shown', async () => {
    vi.useFakeTimers();
    const { loadOf, change } = await mount();
    await change('b');
    await change('c');
    expect(loadOf('b').calls[0].signal.aborted).toBe(true);
    await act(async () => loadOf('b').calls[0].answer(['b1']));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SHOW_LOADING_AFTER_MS);
    });
    expect(screen.getByTestId('screen').textContent).toBe('c: loading a1');
    await act(async () => loadOf('c').calls[0].answer(['c1']));
    expect(screen.getByTestId('screen').textContent).toBe('c: ready c1');
  });

  test('the same change again while it is awaited asks once', async () => {
    vi.useFakeTimers();
    const { loadOf, change } = await mount();
    await change('b');
    await change('b');
    expect(loadOf('b').load).toHaveBeenCalledTimes(1);
    expect(loadOf('b').calls[0].signal.aborted).toBe(false);
  });

  test('a load no screen takes when it is shown is cancelled', async () => {
    vi.useFakeTimers();
    const show = vi.fn();
    const { load, calls } = controlledLoad();
    showWhenLoaded('nobody-asks-for-this', load, show);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SHOW_LOADING_AFTER_MS);
    });
    expect(show).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(calls[0].signal.aborted).toBe(true);
  });
});

describe('cancelWaiting', () => {
  test('a change back to what is shown cancels the one still waiting, which is then never shown', async () => {
    vi.useFakeTimers();
    const show = vi.fn();
    const { load, calls } = controlledLoad();
    showWhenLoaded('b', load, show);
    cancelWaiting();
    expect(calls[0].signal.aborted).toBe(true);
    await act(async () => calls[0].answer(['b1']));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SHOW_LOADING_AFTER_MS);
    });
    expect(show).not.toHaveBeenCalled();
  });
});
