import { expect, test } from 'vitest';
import { loadConfig } from '../../../server/upstream/config.ts';

test('SMTP_INSECURE is off unless set to true, and a wrong value is one line naming it', () => {
  expect(loadConfig({}).smtpInsecure).toBe(false);
  expect(loadConfig({ SMTP_INSECURE: 'true' }).smtpInsecure).toBe(true);
  expect(() => loadConfig({ SMTP_INSECURE: 'vielleicht' })).toThrow('Invalid environment: SMTP_INSECURE must be true or false');
});

test('rate limits default to 300 s, 100 per IP, 10 per account and address, 100 per account from new addresses, 30 new patients per coach', () => {
  expect(loadConfig({}).rateLimits).toEqual({ windowSeconds: 300, perIp: 100, perAccount: 10, perAccountCeiling: 100, patientsPerCoach: 30 });
  expect(loadConfig({ RATE_LIMIT_PATIENTS_PER_COACH: '5' }).rateLimits.patientsPerCoach).toBe(5);
  expect(() => loadConfig({ RATE_LIMIT_PATIENTS_PER_COACH: 'viele' })).toThrow('Invalid environment: RATE_LIMIT_PATIENTS_PER_COACH');
  expect(loadConfig({ RATE_LIMIT_ACCOUNT_CEILING: '500' }).rateLimits.perAccountCeiling).toBe(500);
  expect(() => loadConfig({ RATE_LIMIT_ACCOUNT_CEILING: '0' })).toThrow(
    'Invalid environment: RATE_LIMIT_ACCOUNT_CEILING must be a whole number from 1 to 1000000',
  );
});

test('sessions idle out after 30 minutes and last 12 hours unless SESSION_IDLE_MINUTES and SESSION_MAX_HOURS say otherwise', () => {
  expect(loadConfig({}).session).toEqual({ idleMinutes: 30, maxHours: 12 });
  expect(loadConfig({ SESSION_IDLE_MINUTES: '1', SESSION_MAX_HOURS: '8' }).session).toEqual({ idleMinutes: 1, maxHours: 8 });
  expect(() => loadConfig({ SESSION_IDLE_MINUTES: '0' })).toThrow('Invalid environment: SESSION_IDLE_MINUTES must be a whole number from 1 to 10080');
  expect(() => loadConfig({ SESSION_MAX_HOURS: '1.5' })).toThrow('Invalid environment: SESSION_MAX_HOURS must be a whole number');
});
