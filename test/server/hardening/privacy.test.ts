import { test as baseTest, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/e2e-chromium.ts';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { spawnGateway } from '../../helpers/gateway-process.ts';
import type { GatewayProcess } from '../../helpers/gateway-process.ts';
import { XSRF_SECRET } from '../../helpers/gateway-stack.ts';
import { spellings, startFakeSentry, startLoggedUpstream, startSwitch } from '../../helpers/privacy-probes.ts';
import type { LoggedUpstream } from '../../helpers/privacy-probes.ts';

/*
 * A full browser journey with canary values - a new password set through the emailed reset link, the link's
 * token, the session's access token, a patient's name and email address, a comment - and two provoked errors:
 * an unhandled error in the page and an upstream outage in the gateway. Afterwards none of the canaries may
 * appear in the gateway's log, the upstream's log, or anything that reached the (fake) Sentry, which must have
 * received both errors.
 */

const CANARY = {
  password: 'KanariPasswort4711x',
  firstName: 'Zwoelfhild',
  lastName: 'Kanarienvogelsang',
  email: 'kanarienpost4711@example.net',
  comment: 'Kanarienbefund: Schlafstoerung seit Entlassung',
};
const CLIENT_ERROR = 'Provozierter Fehler im Datenschutztest';

type Sentry = Awaited<ReturnType<typeof startFakeSentry>>;
type Switch = Awaited<ReturnType<typeof startSwitch>>;

// Every part of the journey's world for the file, stopped after it in the reverse order of starting.
const test = baseTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('dataDir', { scope: 'file' }, ({}, { onCleanup }) => {
    if (!existsSync(join(REPO_ROOT, 'dist/public/index.html'))) throw new Error('dist/public is missing: run "npm run build" first (npm test does)');
    const dataDir = mkdtempSync(join(tmpdir(), 'hardening-privacy-'));
    onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    return dataDir;
  })
  // biome-ignore lint/correctness/noEmptyPattern: see above
  .extend('sentry', { scope: 'file' }, async ({}, { onCleanup }): Promise<Sentry> => {
    const sentry = await startFakeSentry();
    onCleanup(() => sentry.close());
    return sentry;
  })
  .extend('upstream', { scope: 'file' }, async ({ dataDir }, { onCleanup }): Promise<LoggedUpstream> => {
    const upstream = await startLoggedUpstream(dataDir);
    onCleanup(async () => {
      await upstream.stop();
    });
    return upstream;
  })
  /** Lets the test take the upstream away. */
  .extend('toggle', { scope: 'file' }, async ({ upstream }, { onCleanup }): Promise<Switch> => {
    const toggle = await startSwitch(upstream.port);
    onCleanup(() => toggle.close());
    return toggle;
  })
  .extend('gateway', { scope: 'file' }, async ({ sentry, toggle }, { onCleanup }): Promise<GatewayProcess> => {
    const gateway = await spawnGateway({ UPSTREAM_URL: toggle.url, SENTRY_DSN: sentry.dsn, XSRF_SECRET, LOG_LEVEL: 'info', PROXY_TIMEOUT_MS: '3000' });
    onCleanup(async () => {
      if (gateway.child.exitCode === null) gateway.child.kill('SIGTERM');
      await gateway.exited;
    });
    return gateway;
  })
  .extend('browser', { scope: 'file' }, async ({ gateway: _ }, { onCleanup }): Promise<Browser> => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    onCleanup(() => browser.close());
    return browser;
  });
// Everything starts here, with a hook's time rather than the test's.
test.beforeAll(({ browser: _ }) => {}, 60_000);

async function resetLink(dataDir: string, to: string): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  for (let i = 0; i < 100; i++) {
    const names = existsSync(outbox) ? readdirSync(outbox).sort().reverse() : [];
    for (const name of names) {
      const mail = readFileSync(join(outbox, name), 'utf8');
      const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail)?.[0];
      if (link && mail.includes(to)) return link;
    }
    // Another process writes the file; polling the folder is the only signal.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset mail for ${to}`);
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Watches the page: what it returns lists the scripts the page downloaded that hold Sentry's browser SDK (it names itself in every envelope it sends). */
function watchScripts(page: Page): () => Promise<string[]> {
  const scripts: Promise<string | null>[] = [];
  page.on('response', (response) => {
    if (!/\.js($|\?)/.test(response.url())) return;
    scripts.push(
      response
        .text()
        .then((text) => (text.includes('sentry.javascript.browser') ? new URL(response.url()).pathname : null))
        .catch(() => null),
    );
  });
  return async () => (await Promise.all(scripts)).filter((name): name is string => name !== null);
}

async function journey(
  page: Page,
  { gateway, dataDir, sentry, toggle }: { gateway: GatewayProcess; dataDir: string; sentry: Sentry; toggle: Switch },
): Promise<{ accessToken: string; resetToken: string }> {
  const base = gateway.url;
  const sentryScripts = watchScripts(page);
  // A new password through the emailed link: the password and the link's token are canaries.
  await page.goto(`${base}/coach-reset-password`);
  await page.getByPlaceholder('Email', { exact: true }).fill('coach@example.org');
  await page.getByRole('button', { name: 'Passwort zurücksetzen' }).click();
  await page.getByRole('alertdialog').or(page.getByRole('dialog')).getByRole('button').first().click();
  const link = await resetLink(dataDir, 'coach@example.org');
  const resetToken = new URL(link).searchParams.get('access_token')!;
  await page.goto(`${base}${new URL(link).pathname}${new URL(link).search}`);
  await page.getByPlaceholder('Ihr neues Passwort', { exact: true }).fill(CANARY.password);
  await page.getByPlaceholder('Wiederholen Sie Ihr neues Passwort', { exact: true }).fill(CANARY.password);
  await page.getByRole('button', { name: 'Passwort ändern' }).click();
  await page.waitForURL('**/login**');

  await page.getByLabel('E-Mail', { exact: true }).fill('coach@example.org');
  await page.getByLabel('Passwort', { exact: true }).fill(CANARY.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.waitForURL('**/dashboard');
  const accessToken = (await page.evaluate(() => localStorage.getItem('accessToken')))!;
  expect(accessToken.length).toBeGreaterThan(10);

  // A patient with a canary name and email address, and a comment about them.
  await page.goto(`${base}/patient/new`);
  await page.getByLabel('Vorname').fill(CANARY.firstName);
  await page.getByLabel('Nachname').fill(CANARY.lastName);
  await page.getByLabel('Geburtsdatum').fill('1961-04-12');
  await page.getByLabel('E-Mail').fill(CANARY.email);
  await page.getByLabel('Nachsorge ab').fill('2026-10-01');
  await page.getByLabel('Nachsorge bis').fill('2027-03-31');
  await page.locator('form.patient-form').getByRole('button', { name: 'Patient anlegen' }).click();
  // The record of the new patient (not /patient/new, which the old pattern matched before the form was even sent,
  // and which it stopped matching once the client added ?created=1: a race on how fast the POST came back).
  await page.waitForURL(/\/patient\/(?!new(\?|$))[^/?]+(\?created=1)?$/);
  await page
    .getByRole('heading', { name: new RegExp(CANARY.lastName) })
    .first()
    .waitFor();
  await page
    .getByRole('tab', { name: 'Kommentare' })
    .or(page.getByRole('link', { name: 'Kommentare' }))
    .first()
    .click();
  await page.getByLabel('Neuer Kommentar').fill(CANARY.comment);
  await page.getByRole('button', { name: 'Kommentar speichern' }).click();
  await page.getByText(CANARY.comment).waitFor();

  // A search by name: the name travels in the page URL and in the /v2 query string.
  await page.goto(`${base}/patient?q=${CANARY.lastName}`);
  await page
    .getByRole('link', { name: new RegExp(CANARY.lastName) })
    .first()
    .waitFor();

  // Until the first error, a coach downloads nothing of Sentry's SDK, DSN or not.
  expect(await sentryScripts()).toEqual([]);

  // Provoked client error: unhandled, so the page reports it (with the page URL and breadcrumbs around it).
  await page.evaluate((message) => {
    setTimeout(() => {
      throw new Error(message);
    });
  }, CLIENT_ERROR);
  await waitFor(() => sentry.envelopes.some((e) => e.sdk.includes('browser') && e.text.includes(CLIENT_ERROR)), 'the client error at the fake Sentry');
  // The script's response reaches this process on its own channel, possibly after the envelope did.
  await expect.poll(async () => (await sentryScripts()).length, { timeout: 10_000 }).toBeGreaterThan(0);

  // Provoked server error: the upstream goes away while the coach searches again.
  toggle.on = false;
  const status = await page.evaluate(async (name) => {
    const filter = JSON.stringify({ where: { lastName: { like: `%${name}%` } } });
    const res = await fetch(`/v2/patients?filter=${encodeURIComponent(filter)}`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` },
    });
    return res.status;
  }, CANARY.lastName);
  expect(status).toBe(502);
  toggle.on = true;
  return { accessToken, resetToken };
}

test('canaries from a full journey appear in no log and in nothing sent to Sentry, which got both provoked errors', async ({
  browser,
  gateway,
  dataDir,
  sentry,
  toggle,
  upstream,
}) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  page.setDefaultTimeout(45_000);
  const { accessToken, resetToken } = await journey(page, { gateway, dataDir, sentry, toggle }).catch((error: Error) => {
    throw new Error(`journey stopped at ${page.url()}: ${error.message}`);
  });
  await context.close();

  // SIGTERM flushes the gateway's Sentry client; the report of the outage must have arrived by then.
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toEqual({ code: 0, signal: null });
  await waitFor(() => sentry.envelopes.some((e) => e.sdk.includes('node') && e.text.includes('upstream unreachable')), 'the server error at the fake Sentry');

  const sources = {
    'gateway log': gateway.stdout() + gateway.stderr(),
    'upstream log': upstream.log(),
    'Sentry envelopes': sentry.envelopes.map((e) => e.text).join('\n'),
  };
  // The journey really happened and was logged.
  expect(sources['gateway log']).toContain('/v2/patients');
  expect(sources['upstream log']).toContain('/v2/patients');
  expect(sources['upstream log']).toContain('mail written to outbox');

  const secrets: Record<string, string> = { ...CANARY, accessToken, resetToken, emailLocalPart: CANARY.email.split('@')[0] };
  const found: string[] = [];
  for (const [source, text] of Object.entries(sources)) {
    for (const [name, value] of Object.entries(secrets)) {
      for (const spelling of spellings(value)) if (text.includes(spelling)) found.push(`${name} in ${source} (as ${JSON.stringify(spelling)})`);
    }
  }
  expect(found).toEqual([]);
}, 120_000);
