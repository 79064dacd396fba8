import { describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ConfigError, EnvSchema, cleanTitle, loadConfig } from '../../../server/config.ts';
import { NODE_BIN, REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { mappingFile } from '../../helpers/renamed-upstream.ts';

const random = () => 'r'.repeat(64);
const load = (env: Record<string, string>) => loadConfig(env, random);

function problem(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  test('has working defaults for an empty environment', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 8080,
      host: undefined,
      upstreamUrl: undefined,
      appTitle: 'CL',
      sentryDsn: undefined,
      logLevel: 'info',
      trustProxy: false,
      proxyTimeoutMs: 30_000,
      shutdownGraceMs: 10_000,
      xsrfSecretFromEnv: false,
      session: { idleMinutes: 30, maxHours: 12 },
      upstream: { dataDir: './data', demoData: true },
    });
    expect(config.xsrfSecret).toBe(random());
  });

  test('reads every variable', () => {
    const config = load({
      PORT: '9000',
      HOST: '127.0.0.1',
      UPSTREAM_URL: 'http://api:3000/base',
      APP_TITLE: 'Nachsorge',
      SENTRY_DSN: 'https://k@o1.ingest.sentry.io/2',
      SENTRY_ENVIRONMENT: 'staging',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '1',
      PROXY_TIMEOUT_MS: '5000',
      XSRF_SECRET: 'x'.repeat(40),
      SHUTDOWN_GRACE_MS: '3000',
      DATA_DIR: '/data',
      DEMO_DATA: 'false',
      ADMIN_EMAIL: 'admin@example.org',
      ADMIN_PASSWORD: 'long-enough',
      SESSION_IDLE_MINUTES: '15',
      SESSION_MAX_HOURS: '8',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      upstreamUrl: 'http://api:3000/base',
      appTitle: 'Nachsorge',
      sentryEnvironment: 'staging',
      logLevel: 'debug',
      trustProxy: 1,
      proxyTimeoutMs: 5000,
      xsrfSecret: 'x'.repeat(40),
      xsrfSecretFromEnv: true,
      shutdownGraceMs: 3000,
      session: { idleMinutes: 15, maxHours: 8 },
      upstream: { dataDir: '/data', demoData: false, adminEmail: 'admin@example.org', adminPassword: 'long-enough' },
    });
  });

  test('treats empty values as unset', () => {
    expect(load({ PORT: '', APP_TITLE: '  ' })).toMatchObject({ port: 8080, appTitle: 'CL' });
  });

  test.each([
    ['"Praxis Nord"', 'Praxis Nord'],
    ["'Praxis Nord'", 'Praxis Nord'],
    ['„Praxis“ Nord', 'Praxis Nord'],
    ["Müller's Praxis", "Müller's Praxis"],
  ])('APP_TITLE %s becomes %s', (raw, title) => {
    expect(cleanTitle(raw)).toBe(title);
    expect(load({ APP_TITLE: raw }).appTitle).toBe(title);
  });

  test.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('TRUST_PROXY %s', (raw, value) => {
    expect(load({ TRUST_PROXY: raw }).trustProxy).toEqual(value);
  });

  test.each([
    ['PORT', 'abc', /PORT must be a whole number from 0 to 65535/],
    ['PORT', '70000', /PORT must be a whole number/],
    ['UPSTREAM_URL', 'api 3000', /UPSTREAM_URL must be an absolute http\(s\) URL/],
    ['UPSTREAM_URL', 'api:3000', /UPSTREAM_URL must use http or https/],
    ['UPSTREAM_URL', 'ftp://api/', /UPSTREAM_URL must use http or https/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['TRUST_PROXY', 'sometimes', /TRUST_PROXY must be/],
    ['PROXY_TIMEOUT_MS', '-5', /PROXY_TIMEOUT_MS must be a whole number/],
    ['XSRF_SECRET', 'short', /XSRF_SECRET must be at least 32 characters/],
    ['SENTRY_DSN', 'not a url', /SENTRY_DSN must be a Sentry DSN URL/],
    ['DEMO_DATA', 'maybe', /DEMO_DATA must be true or false/],
    ['ADMIN_EMAIL', 'nobody', /ADMIN_EMAIL must be an email address/],
    ['ADMIN_PASSWORD', 'short', /ADMIN_PASSWORD must be at least 8 characters/],
    ['ADMIN_EMAIL', 'admin@example.org', /ADMIN_PASSWORD must be set too/],
    ['ADMIN_PASSWORD', 'long-enough-1', /ADMIN_EMAIL must be set too/],
    ['SHUTDOWN_GRACE_MS', '1.5', /SHUTDOWN_GRACE_MS must be a whole number/],
    ['APP_TITLE', '""', /APP_TITLE must contain text/],
    ['PUBLIC_URL', 'coach.example.org', /PUBLIC_URL must be the address people open, an http\(s\) origin/],
    ['PUBLIC_URL', 'https://coach.example.org/portal', /PUBLIC_URL must be .* without path/],
    ['PUBLIC_URL', 'ftp://coach.example.org', /PUBLIC_URL must be .*http\(s\)/],
    ['PUBLIC_URL', 'https://user:pw@coach.example.org', /PUBLIC_URL must be/],
    ['ALLOWED_HOSTS', 'coach.example.org:8443', /ALLOWED_HOSTS must be a comma-separated list of host names or addresses without port/],
    ['ALLOWED_HOSTS', 'https://coach.example.org', /ALLOWED_HOSTS must be/],
    ['ALLOWED_HOSTS', 'a,,b', /ALLOWED_HOSTS must be/],
    ['ALLOWED_HOSTS', '*', /ALLOWED_HOSTS must be/],
    ['UPSTREAM_IDLE_TIMEOUT_MS', '50', /UPSTREAM_IDLE_TIMEOUT_MS must be a whole number from 100 to 600000/],
    ['HEADERS_TIMEOUT_MS', '500', /HEADERS_TIMEOUT_MS must be a whole number from 1000 to 120000/],
    ['HEADERS_TIMEOUT_MS', '20s', /HEADERS_TIMEOUT_MS must be a whole number/],
    ['SESSION_IDLE_MINUTES', '0', /SESSION_IDLE_MINUTES must be a whole number from 1 to 10080/],
    ['SESSION_IDLE_MINUTES', '2.5', /SESSION_IDLE_MINUTES must be a whole number/],
    ['SESSION_IDLE_MINUTES', '30m', /SESSION_IDLE_MINUTES must be a whole number/],
    ['SESSION_MAX_HOURS', '0', /SESSION_MAX_HOURS must be a whole number from 1 to 8760/],
    ['SESSION_MAX_HOURS', '-12', /SESSION_MAX_HOURS must be a whole number/],
  ])('%s=%s is refused with a message naming the variable', (variable, value, message) => {
    const error = problem({ [variable]: value });
    expect(error.message.startsWith(error.variable)).toBe(true);
    expect(error.message).toMatch(message);
  });

  test('PUBLIC_URL is kept as its origin; ALLOWED_HOSTS as a normalized list; the pool idle timeout defaults to 4 s, the header timeout to 20 s', () => {
    expect(load({})).toMatchObject({ publicUrl: undefined, allowedHosts: [], upstreamIdleTimeoutMs: 4000, headersTimeoutMs: 20_000 });
    expect(load({ HEADERS_TIMEOUT_MS: '8000' }).headersTimeoutMs).toBe(8000);
    expect(
      load({ PUBLIC_URL: 'HTTPS://Coach.Example.org/', ALLOWED_HOSTS: ' Gateway ,.intern.example,10.0.0.5, ::1 ', UPSTREAM_IDLE_TIMEOUT_MS: '2500' }),
    ).toMatchObject({ publicUrl: 'https://coach.example.org', allowedHosts: ['gateway', '.intern.example', '10.0.0.5', '[::1]'], upstreamIdleTimeoutMs: 2500 });
    expect(load({ PUBLIC_URL: 'http://localhost:8080' }).publicUrl).toBe('http://localhost:8080');
  });

  test('NODE_ENV=production needs PUBLIC_URL: mailed links have no safe default there', () => {
    const error = problem({ NODE_ENV: 'production' });
    expect(error.variable).toBe('PUBLIC_URL');
    expect(error.message).toMatch(/^PUBLIC_URL must be set when NODE_ENV=production/);
    expect(load({ NODE_ENV: 'production', PUBLIC_URL: 'https://coach.example.org' }).publicUrl).toBe('https://coach.example.org');
    expect(load({ NODE_ENV: 'development' }).publicUrl).toBeUndefined();
  });

  test('never repeats a secret value in the message', () => {
    expect(problem({ XSRF_SECRET: 'short-secret' }).message).not.toContain('short-secret');
    expect(problem({ ADMIN_PASSWORD: 'pw' }).message).not.toContain('pw"');
  });
});

test("every variable the gateway reads is in the README's configuration", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  for (const variable of Object.keys(EnvSchema.entries)) expect(readme, variable).toContain(`\`${variable}`);
});

describe('start-up with a bad value', () => {
  test.each([
    ['PORT', 'eighty'],
    ['PROXY_TIMEOUT_MS', 'soon'],
    ['UPSTREAM_URL', 'localhost:3000'],
    ['PUBLIC_URL', 'coach.example.org'],
    ['ALLOWED_HOSTS', 'coach.example.org:443'],
    ['UPSTREAM_IDLE_TIMEOUT_MS', 'forever'],
    ['HEADERS_TIMEOUT_MS', '0'],
    ['SESSION_IDLE_MINUTES', 'thirty'],
    ['SESSION_MAX_HOURS', '0'],
    ['PUBLIC_URL', ''],
  ])('%s=%s exits 1 with one line that names the variable', (variable, value) => {
    // (PUBLIC_URL empty counts as unset, and in production that is the problem.)
    const result = spawnSync(NODE_BIN, [join(REPO_ROOT, 'server/index.ts')], {
      env: { PATH: process.env.PATH, [variable]: value, ...(value === '' ? { NODE_ENV: 'production' } : {}) },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(lines[0]).toMatch(/must/);
    expect(result.stdout).toBe('');
  });
});

describe('UPSTREAM_MAPPING', () => {
  const wrong: [string, unknown, string][] = [
    ['invalid JSON', '{ "entities": { "Patient": } }', 'is not valid JSON'],
    [
      'an unknown shape',
      { entities: { Patinet: { fields: { birthDate: 'birthday' } } } },
      'entities.Patinet is not a shape of the contract (did you mean Patient?)',
    ],
    [
      'an unknown field',
      { entities: { Patient: { fields: { birthdat: 'birthday' } } } },
      'entities.Patient.fields.birthdat is not a field of Patient (did you mean birthDate?)',
    ],
    [
      'a field mapped twice',
      '{"entities":{"Patient":{"fields":{"birthDate":"birthday","birthDate":"dob"}}}}',
      'entities.Patient.fields.birthDate is mapped twice',
    ],
    [
      'two fields onto one API name',
      { entities: { Patient: { fields: { birthDate: 'born', aftercareStart: 'born' } } } },
      'entities.Patient.fields.aftercareStart maps onto "born", which birthDate already has',
    ],
    [
      'a field onto the name of another, unmapped field',
      { entities: { Patient: { fields: { primaryCoachId: 'id' } } } },
      'maps onto "id", which id already has',
    ],
    [
      'a scale that is not a positive number',
      { entities: { CostRate: { fields: { amountCents: { name: 'amount', scale: 0 } } } } },
      'entities.CostRate.fields.amountCents.scale must be a positive number',
    ],
    [
      'a scale that is text',
      { entities: { CostRate: { fields: { amountCents: { scale: '100' } } } } },
      'entities.CostRate.fields.amountCents.scale must be a positive number',
    ],
    [
      'a scale on a text field',
      { entities: { CostRate: { fields: { name: { scale: 100 } } } } },
      'entities.CostRate.fields.name.scale applies to number fields only',
    ],
    ['flat on a shape without data', { entities: { Patient: { flat: true } } }, 'entities.Patient.flat applies only to a shape with a data object'],
    [
      'a value that the field does not have',
      { entities: { Patient: { fields: { gender: { values: { femal: 'f' } } } } } },
      'entities.Patient.fields.gender.values.femal is not a value of gender (did you mean female?)',
    ],
    [
      'values on a field without fixed values',
      { entities: { Patient: { fields: { firstName: { values: { a: 'b' } } } } } },
      'entities.Patient.fields.firstName.values applies to fields with fixed values only',
    ],
    ['an unknown key', { entities: { Patient: { field: {} } } }, 'entities.Patient.field may only have fields and flat'],
  ];

  test.each(wrong)('%s stops start-up with a line that names the file and the place', (_case, content, message) => {
    const { file, cleanup } = mappingFile(content);
    try {
      const error = problem({ UPSTREAM_MAPPING: file });
      expect(error.variable).toBe('UPSTREAM_MAPPING');
      expect(error.message).toContain(`UPSTREAM_MAPPING ${file}: `);
      expect(error.message).toContain(message);
      expect(error.message).not.toContain('\n');
    } finally {
      cleanup();
    }
  });

  test('a file that cannot be read names the file and what to give instead', () => {
    expect(problem({ UPSTREAM_MAPPING: '/nonexistent/mapping.json' }).message).toBe(
      'UPSTREAM_MAPPING /nonexistent/mapping.json: cannot be read (ENOENT): give the path of a readable JSON file',
    );
  });

  test('a valid file is read into the configuration, and without one there is no mapping', () => {
    const { file, cleanup } = mappingFile();
    try {
      const mapping = load({ UPSTREAM_MAPPING: file }).mapping;
      expect(mapping?.get('CostRate')?.fields.get('amountCents')).toEqual({ api: 'amount', scale: 100, values: undefined });
      expect(mapping?.get('Patient')?.fields.get('birthDate')).toMatchObject({ api: 'birthday' });
      expect(mapping?.get('SyncRecord')?.flat).toBe(true);
      expect(load({}).mapping).toBeUndefined();
    } finally {
      cleanup();
    }
  });

  test.each([
    ['a missing file', null],
    ['an unknown field', { entities: { Patient: { fields: { birthdat: 'birthday' } } } }],
    ['a field mapped twice', '{"entities":{"Patient":{"fields":{"birthDate":"a","birthDate":"b"}}}}'],
  ])('the gateway exits 1 with one line on stderr for %s', (_case, content) => {
    const fixture = content === null ? { file: '/nonexistent/mapping.json', cleanup: () => {} } : mappingFile(content);
    try {
      const result = spawnSync(NODE_BIN, [join(REPO_ROOT, 'server/index.ts')], {
        env: { PATH: process.env.PATH, UPSTREAM_MAPPING: fixture.file },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Configuration error: UPSTREAM_MAPPING ${fixture.file.replace(/[.]/g, '\\.')}: `));
      expect(result.stdout).toBe('');
    } finally {
      fixture.cleanup();
    }
  });
});
