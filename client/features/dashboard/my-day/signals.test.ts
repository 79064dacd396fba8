import { describe, expect, test } from 'vitest';
import { buildAppNote } from '../../../../test/helpers/my-day-records.ts';
import { moodWorsening, newAppNotes, type Rating } from './signals.ts';

const TODAY = '2026-11-26';
/** Ratings for the days before TODAY: offsets[i] days ago gets moods[i]. */
const ratings = (pairs: [daysAgo: number, mood: number][]): Rating[] =>
  pairs.map(([ago, mood]) => {
    const day = new Date(`${TODAY}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() - ago);
    return { day: day.toISOString().slice(0, 10), mood };
  });
const week = (mood: number, from = 3): [number, number][] => Array.from({ length: 7 }, (_, i) => [from + i, mood]);

describe('the falling day evaluation (mean mood of the last 3 days at least 1 point below the 7 days before)', () => {
  test('flags a fall of a full point, with both means', () => {
    expect(moodWorsening(ratings([[0, 2], [1, 3], [2, 2], ...week(4)]), TODAY)).toEqual({ recent: 7 / 3, before: 4 });
  });

  test('does not flag a fall of less than a point, a steady or a rising mood', () => {
    expect(moodWorsening(ratings([[0, 3], [1, 4], [2, 3], ...week(4)]), TODAY)).toBeNull();
    expect(moodWorsening(ratings([[0, 4], [1, 4], [2, 4], ...week(4)]), TODAY)).toBeNull();
    expect(moodWorsening(ratings([[0, 5], [1, 5], ...week(2)]), TODAY)).toBeNull();
  });

  test('leaves out days without a rating instead of counting them as bad', () => {
    // Today not rated yet, and three days of the week before missing: still 2 recent and 4 earlier ratings.
    expect(
      moodWorsening(
        ratings([
          [1, 2],
          [2, 2],
          [3, 4],
          [5, 4],
          [7, 5],
          [9, 3],
        ]),
        TODAY,
      ),
    ).toEqual({ recent: 2, before: 4 });
  });

  test('says nothing with fewer than 2 recent or 3 earlier ratings', () => {
    expect(moodWorsening(ratings([[0, 1], ...week(5)]), TODAY)).toBeNull();
    expect(
      moodWorsening(
        ratings([
          [0, 1],
          [1, 1],
          [2, 1],
          [4, 5],
          [8, 5],
        ]),
        TODAY,
      ),
    ).toBeNull();
  });

  test('ignores ratings older than the 10 days the rule reads', () => {
    expect(
      moodWorsening(
        ratings([
          [0, 2],
          [1, 2],
          [10, 5],
          [11, 5],
          [12, 5],
        ]),
        TODAY,
      ),
    ).toBeNull();
  });

  test('counts a day rated twice once, with its last rating', () => {
    expect(moodWorsening(ratings([[0, 4], [0, 1], [1, 1], ...week(4)]), TODAY)).toEqual({ recent: 1, before: 4 });
  });
});

describe('new notes from the app', () => {
  const now = new Date('2026-11-26T09:00:00Z');
  const opened = (at: Record<string, string>) => (id: string) => (at[id] ? Date.parse(at[id]) : null);

  test('counts app notes written after the coach last opened the patient, not those before', () => {
    const notes = [buildAppNote('p1', '2026-11-25T18:00:00Z'), buildAppNote('p1', '2026-11-26T07:00:00Z'), buildAppNote('p2', '2026-11-24T10:00:00Z')];
    const found = newAppNotes(notes, opened({ p1: '2026-11-25T12:00:00Z', p2: '2026-11-25T12:00:00Z' }), now);
    expect([...found.entries()]).toEqual([['p1', { count: 2, newest: '2026-11-26T07:00:00Z' }]]);
  });

  test('for a patient never opened on this device, counts app notes of the last 30 days', () => {
    const notes = [buildAppNote('p1', '2026-11-01T10:00:00Z'), buildAppNote('p2', '2026-10-26T10:00:00Z')];
    expect([...newAppNotes(notes, opened({}), now).keys()]).toEqual(['p1']);
  });

  test("leaves out the clinic's and therapists' notes", () => {
    const notes = [buildAppNote('p1', '2026-11-26T07:00:00Z', { source: 'clinic' }), buildAppNote('p2', '2026-11-26T07:00:00Z', { source: 'therapist' })];
    expect(newAppNotes(notes, opened({}), now).size).toBe(0);
  });
});
