import { describe, expect, test } from 'vitest';
import { loginUrlFor, safeReturnUrl } from './return-url.ts';

describe('returnUrl', () => {
  test('keeps a same-origin path with its query', () => {
    expect(safeReturnUrl('/patient/42?tab=notes')).toBe('/patient/42?tab=notes');
  });

  test.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'dashboard', '', null, '/login?returnUrl=/x'])(
    'sends %s to /dashboard instead',
    (value) => {
      expect(safeReturnUrl(value)).toBe('/dashboard');
    },
  );

  test('the login URL carries the requested address encoded', () => {
    expect(loginUrlFor('/patient?x=1')).toBe('/login?returnUrl=%2Fpatient%3Fx%3D1');
  });
});
