import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';

// docs/product.md#constants sizes live in the global stylesheet; this pins them so a refactor cannot drift silently.
const css = ['app', 'auth'].map((name) => readFileSync(`client/styles/${name}.css`, 'utf8')).join('\n'); // vitest runs from the repository root

test('the sidebar is 250 px wide and sits below a 56 px top bar', () => {
  expect(css).toMatch(/--sidebar-width:\s*250px/);
  expect(css).toMatch(/--topbar-height:\s*56px/);
  expect(css).toMatch(/\.sidebar\s*\{[^}]*top:\s*var\(--topbar-height\)[^}]*width:\s*var\(--sidebar-width\)/);
});

test('the small-screen layout starts below 768 px', () => {
  expect(css).toContain('@media (max-width: 767px)');
  expect(css).toContain('@media (min-width: 768px)');
});

test('the reset request form is 500 px wide', () => {
  expect(css).toMatch(/\.reset-request-form[^{]*\{\s*width:\s*500px/);
});

test('the password screens keep room for a field message, so its arrival on blur does not move the button away from the pointer', () => {
  expect(css).toMatch(/\.auth-card \.field-error,\s*\.auth-card \.field-error:empty\s*\{\s*min-height:\s*1\.4em/);
  expect(css).toMatch(/@media \(max-width: 767px\)\s*\{[^}]*\.auth-card \.field-error:empty\s*\{\s*min-height:\s*2\.8em/);
});
