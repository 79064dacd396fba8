/** Time source, injected so tests can move time (token expiry, 30-minute reset links, rate windows). */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock) => clock.now().toISOString();
export const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);
