import { afterEach, describe, expect, test, vi } from 'vitest';
import { act, render, screen } from '@testing-library/preact';
import { ConnectionBanner } from '../components/ConnectionBanner.tsx';
import { useQuery } from '../data/useQuery.ts';
import { ApiError } from '../data/http.ts';
import { online, onReconnect, reportAnswer, reportNoAnswer } from './connection.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the connection state', () => {
  test('asks /healthz after 1 s, then 2 s, ... while nothing answers, and comes back with the first answer', async () => {
    vi.useFakeTimers();
    const health = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', health);
    const back = vi.fn();
    onReconnect(back);
    reportNoAnswer();
    expect(online.value).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(health).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(health).toHaveBeenCalledWith('/healthz', expect.objectContaining({ cache: 'no-store', credentials: 'omit' }));
    expect(online.value).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(health).toHaveBeenCalledTimes(2);
    expect(online.value).toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
  });

  test('the browser going offline and online is heard too', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{}', { status: 200 })));
    vi.useFakeTimers();
    window.dispatchEvent(new Event('offline'));
    expect(online.value).toBe(false);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(online.value).toBe(true);
  });
});

describe('the "Keine Verbindung" banner', () => {
  test('shows while offline and is gone once the server answers again', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    render(<ConnectionBanner />);
    expect(screen.queryByText('Keine Verbindung')).toBeNull();
    act(() => reportNoAnswer());
    expect(screen.getByRole('status').textContent).toBe('Keine Verbindung');
    act(() => reportAnswer());
    expect(screen.queryByText('Keine Verbindung')).toBeNull();
  });
});

describe('a screen waiting for data', () => {
  function Probe({ load }: { load: () => Promise<{ data: string }> }) {
    const resource = useQuery(load, 'probe');
    return <p>{resource.status === 'ready' ? resource.data : resource.status}</p>;
  }

  test('loads again by itself when the connection comes back after a load got no answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    const load = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(0, 'NETWORK_ERROR', 'offline'))
      .mockResolvedValueOnce({ data: 'geladen' });
    render(<Probe load={load} />);
    expect(await screen.findByText('error')).toBeTruthy();
    act(() => {
      reportNoAnswer();
      reportAnswer();
    });
    expect(await screen.findByText('geladen')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });

  test('does not retry by itself after an answer that was an error (a 500 is no connection problem)', async () => {
    const load = vi.fn().mockRejectedValue(new ApiError(500, 'HTTP_500', 'broken'));
    render(<Probe load={load} />);
    expect(await screen.findByText('error')).toBeTruthy();
    await act(async () => {});
    act(() => {
      reportNoAnswer();
      reportAnswer();
    });
    await act(async () => {});
    expect(load).toHaveBeenCalledTimes(1);
  });
});
