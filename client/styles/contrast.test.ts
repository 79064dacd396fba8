import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';

// WCAG 2 AA: text needs 4.5:1 against its background. The sidebar and the top-bar menus draw their entries
// in Pico's primary colours on a light hover tint; these tests recompute the ratios from the stylesheets, so a
// colour change that drops a state below 4.5:1 fails here before axe finds it in the browser.
const app = readFileSync('client/styles/app.css', 'utf8'); // vitest runs from the repository root
const pico = readFileSync('client/styles/pico.css', 'utf8');

function variable(css: string, name: string): string {
  const match = new RegExp(`${name}:\\s*#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\\b`).exec(css);
  if (!match) throw new Error(`${name} is not a solid #rgb/#rrggbb colour`);
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return `#${digits}`;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const primary = variable(pico, '--pico-primary'); // rest and current-page text
const primaryHover = variable(pico, '--pico-primary-hover'); // hover/focus text
const page = variable(pico, '--pico-background-color'); // sidebar and menu background at rest
const hoverBackground = variable(app, '--nav-hover-background');

test('the contrast helper reproduces the ratio axe reported for the old hover colours', () => {
  expect(contrast('#015887', '#81cdf4')).toBeCloseTo(4.36, 1);
});

test('sidebar and menu text meets 4.5:1 at rest, on hover/focus and as the current page', () => {
  expect(contrast(primary, page)).toBeGreaterThanOrEqual(4.5);
  expect(contrast(primaryHover, hoverBackground)).toBeGreaterThanOrEqual(4.5);
  // a current-page link that is hovered keeps whichever of the two text colours wins the cascade
  expect(contrast(primary, hoverBackground)).toBeGreaterThanOrEqual(4.5);
});

test('sidebar and menu entries use the solid hover tint, not the half-transparent Pico focus colour', () => {
  for (const selector of ['.sidebar :is(a, .submenu-toggle):is(:hover, :focus-visible)', '.menu-list :is(a, button):is(:hover, :focus-visible)']) {
    const start = app.indexOf(`${selector} {`);
    expect(start, selector).toBeGreaterThan(-1);
    const rule = app.slice(start, app.indexOf('}', start));
    expect(rule).toContain('background: var(--nav-hover-background)');
    expect(rule).not.toContain('--pico-primary-focus');
  }
});
