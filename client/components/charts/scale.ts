/** Pure helpers for the SVG charts: nice axis ticks and linear scales. */

/** Round tick values (1, 2, 2.5, 5 times a power of ten) covering 0..max, about `count` of them; whole numbers only when `integer`. */
export function niceTicks(max: number, count = 5, integer = false): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  // Counts (patients, calls) must not get ticks such as 2.5.
  const candidates = [1, 2, 2.5, 5, 10].map((f) => f * power).filter((s) => !integer || Number.isInteger(s));
  const step = candidates.find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2; v += step) ticks.push(Number(v.toFixed(10)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toFixed(10)));
  return ticks;
}

/** Maps [0, domainMax] onto [rangeStart, rangeEnd] (rangeEnd may be smaller, as for y in SVG). */
export function linearScale(domainMax: number, rangeStart: number, rangeEnd: number) {
  const span = domainMax > 0 ? domainMax : 1;
  return (value: number) => rangeStart + ((rangeEnd - rangeStart) * value) / span;
}

/** Indexes of the x labels to print so they do not overlap: at most `room` of them, always the last. */
/**
 * How many x labels fit side by side: each gets at least 80 px, more for long ones (about 7 px a character at the
 * axes' 12 px, plus a gap), so dates in a language's longer format ("Nov 26, 2026") never run into each other.
 */
export function labelRoom(plotWidth: number, labels: readonly string[]): number {
  const longest = labels.reduce((max, label) => Math.max(max, label.length), 0);
  return Math.floor(plotWidth / Math.max(80, longest * 7 + 20));
}

export function labelIndexes(length: number, room: number): number[] {
  if (length <= 0) return [];
  const every = Math.max(1, Math.ceil(length / Math.max(1, room)));
  const picked: number[] = [];
  for (let i = 0; i < length; i += every) picked.push(i);
  const last = picked[picked.length - 1];
  if (last !== length - 1) {
    // The last day is always labelled; the label before it gives way when they would collide.
    if (length - 1 - last < every && picked.length > 1) picked.pop();
    picked.push(length - 1);
  }
  return picked;
}

/** Largest finite value of all series (0 when there is none). */
export function maxValue(series: readonly { values: readonly (number | null)[] }[]): number {
  let max = 0;
  for (const s of series) for (const v of s.values) if (v !== null && Number.isFinite(v) && v > max) max = v;
  return max;
}

/** Colour-blind safe series colours (Okabe-Ito), readable on light and dark backgrounds. */
export const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
export const colourOf = (index: number) => SERIES_COLOURS[index % SERIES_COLOURS.length];
