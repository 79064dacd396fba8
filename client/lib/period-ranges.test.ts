import { describe, expect, test } from 'vitest';
import { calendarRange, calendarRangeOf, comparisonBasis, periodFromAddress, previousPeriod, type CalendarRange } from './period-ranges.ts';

const ranges = (today: string) =>
  Object.fromEntries((['thisMonth', 'lastMonth', 'thisQuarter', 'lastQuarter', 'yearToDate'] as CalendarRange[]).map((r) => [r, calendarRange(r, today)]));

describe('calendar ranges', () => {
  test('"this" ranges run from the first day of the month, quarter or year to today; "last" ranges are whole', () => {
    expect(ranges('2026-11-26')).toEqual({
      thisMonth: { from: '2026-11-01', to: '2026-11-26' },
      lastMonth: { from: '2026-10-01', to: '2026-10-31' },
      thisQuarter: { from: '2026-10-01', to: '2026-11-26' },
      lastQuarter: { from: '2026-07-01', to: '2026-09-30' },
      yearToDate: { from: '2026-01-01', to: '2026-11-26' },
    });
  });

  test("on New Year's Day last month and last quarter lie in the year before", () => {
    expect(ranges('2027-01-01')).toEqual({
      thisMonth: { from: '2027-01-01', to: '2027-01-01' },
      lastMonth: { from: '2026-12-01', to: '2026-12-31' },
      thisQuarter: { from: '2027-01-01', to: '2027-01-01' },
      lastQuarter: { from: '2026-10-01', to: '2026-12-31' },
      yearToDate: { from: '2027-01-01', to: '2027-01-01' },
    });
  });

  test('the first and the last day of a quarter belong to it', () => {
    expect(calendarRange('thisQuarter', '2026-04-01')).toEqual({ from: '2026-04-01', to: '2026-04-01' });
    expect(calendarRange('thisQuarter', '2026-06-30')).toEqual({ from: '2026-04-01', to: '2026-06-30' });
    expect(calendarRange('lastQuarter', '2026-07-01')).toEqual({ from: '2026-04-01', to: '2026-06-30' });
  });

  test('last month ends on February 29 in a leap year and on February 28 otherwise', () => {
    expect(calendarRange('lastMonth', '2028-03-15')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(calendarRange('lastMonth', '2027-03-01')).toEqual({ from: '2027-02-01', to: '2027-02-28' });
    expect(calendarRange('lastMonth', '2100-03-31')).toEqual({ from: '2100-02-01', to: '2100-02-28' });
    expect(calendarRange('lastQuarter', '2024-04-10')).toEqual({ from: '2024-01-01', to: '2024-03-31' });
  });

  test('a period is recognised as the range it is, and a free one as none', () => {
    expect(calendarRangeOf({ from: '2026-10-01', to: '2026-10-31' }, '2026-11-26')).toBe('lastMonth');
    expect(calendarRangeOf({ from: '2026-10-01', to: '2026-10-30' }, '2026-11-26')).toBeNull();
  });
});

describe('the previous period', () => {
  const previous = (from: string, to: string) => previousPeriod({ from, to });

  test('a whole month is compared with the whole month before, whatever their lengths', () => {
    expect(previous('2026-10-01', '2026-10-31')).toEqual({ basis: 'month', period: { from: '2026-09-01', to: '2026-09-30' } });
    expect(previous('2026-03-01', '2026-03-31')).toEqual({ basis: 'month', period: { from: '2026-02-01', to: '2026-02-28' } });
    expect(previous('2028-03-01', '2028-03-31')).toEqual({ basis: 'month', period: { from: '2028-02-01', to: '2028-02-29' } });
    expect(previous('2027-01-01', '2027-01-31')).toEqual({ basis: 'month', period: { from: '2026-12-01', to: '2026-12-31' } });
  });

  test('a month so far is compared with the same days of the month before, cut at its end', () => {
    expect(previous('2026-11-01', '2026-11-26')).toEqual({ basis: 'month', period: { from: '2026-10-01', to: '2026-10-26' } });
    expect(previous('2027-03-01', '2027-03-30')).toEqual({ basis: 'month', period: { from: '2027-02-01', to: '2027-02-28' } });
    expect(previous('2028-03-01', '2028-03-29')).toEqual({ basis: 'month', period: { from: '2028-02-01', to: '2028-02-29' } });
  });

  test('a quarter, whole or so far, is compared with the quarter before', () => {
    expect(previous('2026-07-01', '2026-09-30')).toEqual({ basis: 'quarter', period: { from: '2026-04-01', to: '2026-06-30' } });
    expect(previous('2026-10-01', '2026-11-26')).toEqual({ basis: 'quarter', period: { from: '2026-07-01', to: '2026-08-26' } });
    expect(previous('2027-01-01', '2027-03-31')).toEqual({ basis: 'quarter', period: { from: '2026-10-01', to: '2026-12-31' } });
  });

  test('the year so far is compared with the same days a year before, February 29 included', () => {
    expect(previous('2026-01-01', '2026-11-26')).toEqual({ basis: 'year', period: { from: '2025-01-01', to: '2025-11-26' } });
    expect(previousPeriod({ from: '2028-01-01', to: '2028-02-29' }, 'year')).toEqual({ basis: 'year', period: { from: '2027-01-01', to: '2027-02-28' } });
    expect(previousPeriod({ from: '2029-01-01', to: '2029-02-28' }, 'year')).toEqual({ basis: 'year', period: { from: '2028-01-01', to: '2028-02-29' } });
  });

  test('any other range is compared with as many days directly before it', () => {
    expect(previous('2026-11-02', '2026-11-04')).toEqual({ basis: 'days', period: { from: '2026-10-30', to: '2026-11-01' } });
    expect(previous('2026-02-15', '2026-03-14')).toEqual({ basis: 'days', period: { from: '2026-01-18', to: '2026-02-14' } });
    expect(previous('2028-03-01', '2028-03-01')).toEqual({ basis: 'month', period: { from: '2028-02-01', to: '2028-02-01' } });
    expect(previous('2028-03-02', '2028-03-02')).toEqual({ basis: 'days', period: { from: '2028-03-01', to: '2028-03-01' } });
    expect(previous('2028-02-20', '2028-03-05')).toEqual({ basis: 'days', period: { from: '2028-02-05', to: '2028-02-19' } });
  });

  test('a range of months that is no quarter, or crosses a year, counts days', () => {
    expect(comparisonBasis({ from: '2026-02-01', to: '2026-03-31' })).toBe('days');
    expect(comparisonBasis({ from: '2026-12-01', to: '2027-01-31' })).toBe('days');
    expect(comparisonBasis({ from: '2026-01-01', to: '2026-12-31' })).toBe('year');
  });

  test('the previous period keeps the chosen coach', () => {
    expect(previousPeriod({ from: '2026-10-01', to: '2026-10-31', coachId: 'c-7' }).period.coachId).toBe('c-7');
  });
});

describe('the period in the address', () => {
  test('a named range is that range as of today, so a bookmark of "this month" stays this month', () => {
    expect(periodFromAddress('range=thisMonth&from=2025-01-01&to=2025-01-31&coach=c-2', '2026-11-26')).toEqual({
      range: 'thisMonth',
      period: { from: '2026-11-01', to: '2026-11-26', coachId: 'c-2' },
    });
  });

  test('without a known range the two days are a free range', () => {
    expect(periodFromAddress('range=someday&from=2026-10-05&to=2026-10-09', '2026-11-26')).toEqual({
      range: null,
      period: { from: '2026-10-05', to: '2026-10-09' },
    });
  });
});
