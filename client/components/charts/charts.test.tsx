import { describe, test, expect, vi } from 'vitest';
import { render as renderNow } from 'preact';
import { render, screen, fireEvent, within } from '@testing-library/preact';
import { LineChart } from './LineChart.tsx';
import { BarChart } from './BarChart.tsx';
import { labelIndexes, labelRoom, niceTicks } from './scale.ts';
import { linePath } from './LineChart.tsx';

const data = {
  title: 'Patienten in Nachsorge',
  description: '01.11.2026 bis 03.11.2026',
  labels: ['01.11.', '02.11.', '03.11.'],
  series: [
    { name: 'Aktiv', values: [3, null, 5.5] },
    { name: 'Neu', values: [1, 2, 0] },
  ],
  xLabel: 'Tag',
  yLabel: 'Anzahl',
};

describe.each([
  ['LineChart', LineChart],
  ['BarChart', BarChart],
])('%s', (_name, Chart) => {
  test('names the SVG by its title and description for screen readers', () => {
    const { container } = render(<Chart {...data} />);
    const svg = screen.getByRole('img', { name: /Patienten in Nachsorge/ });
    expect(svg.querySelector('title')?.textContent).toBe('Patienten in Nachsorge');
    expect(svg.querySelector('desc')?.textContent).toBe('01.11.2026 bis 03.11.2026');
    expect(container.querySelector('[style]')).toBeNull();
  });

  test('shows the axis labels', () => {
    const { container } = render(<Chart {...data} />);
    const texts = [...container.querySelectorAll('svg text')].map((n) => n.textContent);
    expect(texts).toContain('Tag');
    expect(texts).toContain('Anzahl');
    expect(texts).toContain('01.11.');
  });

  test('switches to a table with every value and back to the chart', () => {
    render(<Chart {...data} />);
    fireEvent.click(screen.getByRole('button', { name: 'Als Tabelle anzeigen' }));
    const table = screen.getByRole('table', { name: 'Patienten in Nachsorge' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Tag', 'Aktiv', 'Neu']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['01.11.', '3', '1'],
      ['02.11.', '–', '2'],
      ['03.11.', '5,5', '0'],
    ]);
    expect(screen.queryByRole('img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Als Diagramm anzeigen' }));
    expect(screen.getByRole('img', { name: /Patienten in Nachsorge/ })).toBeTruthy();
  });

  test('says there are no values instead of drawing an empty chart', () => {
    render(<Chart {...data} labels={[]} series={[]} />);
    expect(screen.getByText('Für diesen Zeitraum liegen keine Werte vor.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  test('never prints NaN or undefined', () => {
    const { container } = render(<Chart {...data} series={[{ name: 'Leer', values: [null, Number.NaN, null] }]} />);
    expect(container.innerHTML).not.toMatch(/NaN|undefined/);
  });
});

describe('chart helpers', () => {
  test('axis ticks are round numbers that cover the largest value', () => {
    expect(niceTicks(9)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(230).at(-1)).toBeGreaterThanOrEqual(230);
    expect(niceTicks(12)).toContain(2.5);
    expect(niceTicks(12, 5, true).every(Number.isInteger)).toBe(true);
    expect(niceTicks(3, 5, true)).toEqual([0, 1, 2, 3]);
  });

  test('x labels are thinned out to the room available', () => {
    expect(labelIndexes(5, 10)).toEqual([0, 1, 2, 3, 4]);
    expect(labelIndexes(30, 5).length).toBeLessThanOrEqual(6);
    expect(labelIndexes(90, 9).at(-1)).toBe(89);
    const picked = labelIndexes(90, 9);
    expect(picked.every((v, i) => i === 0 || v - picked[i - 1] >= 10)).toBe(true);
  });

  test('long date labels get more room each, so fewer of them fit', () => {
    expect(labelRoom(480, ['01.11.'])).toBe(6);
    expect(labelRoom(480, ['26.11.2026'])).toBe(5);
    expect(labelRoom(480, ['Nov 26, 2026'])).toBe(4);
  });

  test('a missing value breaks the line into two segments', () => {
    expect(
      linePath(
        [1, null, 2],
        (i) => i,
        (v) => v,
      ),
    ).toBe('M0.0 1.0M2.0 2.0');
  });
});

test('draws a chart at the width of its place before the first paint, not at a guess it redraws after', async () => {
  // A chart that arrives on a shown page was painted once at the guessed 640 px and then redrawn at its real width.
  // Preact runs effects after the paint, layout effects before it.
  const measured = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width: 330 } as DOMRect);
  const root = document.createElement('div');
  document.body.append(root);
  try {
    renderNow(<LineChart {...data} />, root);
    // The re-render a state change asks for comes in a microtask, still before the browser paints.
    for (let i = 0; i < 3; i++) await Promise.resolve();
    expect(root.querySelector('svg.chart-svg')?.getAttribute('width')).toBe('330');
  } finally {
    renderNow(null, root);
    root.remove();
    measured.mockRestore();
  }
});
