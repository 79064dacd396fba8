import { expect } from 'vitest';
import request from 'supertest';
import type { TestUpstream } from '../../helpers/upstream-app.ts';
import { fakeSmtpServer } from '../../helpers/upstream-smtp.ts';
import { capturedLogger } from '../../helpers/upstream-log.ts';
import { sendSmtp } from '../../../server/upstream/lib/mailer.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// A local SMTP server per test (started with the TLS the test names), closed after it like the upstream.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
const test = upstreamTest().extend('smtpServer', async ({}, { onCleanup }) => {
  const started: Awaited<ReturnType<typeof fakeSmtpServer>>[] = [];
  onCleanup(async () => {
    for (const smtp of started) await smtp.close();
  });
  return async (options: Parameters<typeof fakeSmtpServer>[0] = {}) => {
    const smtp = await fakeSmtpServer(options);
    started.push(smtp);
    return smtp;
  };
});

/** Asks for a reset mail and waits for the mail work, which runs after the answer. */
const forgot = async (u: TestUpstream) => {
  await request(u.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
  await u.settled();
};

test('with SMTP_URL the reset mail goes out over STARTTLS, logged in, and is not kept in the outbox', async ({ upstream, smtpServer }) => {
  const smtp = await smtpServer({ tls: 'starttls' });
  const t = await upstream({
    smtpUrl: `smtp://portal:geheim%21@127.0.0.1:${smtp.port}`,
    mailFrom: 'Nachsorge <no-reply@example.org>',
    smtpTls: smtp.clientTls,
  });
  await forgot(t);
  expect(smtp.mails).toHaveLength(1);
  const mail = smtp.mails[0];
  expect(smtp.logins).toEqual([{ auth: 'portal:geheim!', secure: true }]);
  expect(mail).toMatchObject({ from: 'no-reply@example.org', to: ['coach@example.org'], secure: true });
  expect(mail.data).toMatch(/reset-password\?access_token=\S+/);
  expect(t.outbox()).toHaveLength(0);
  // The link from the mail works.
  const token = decodeURIComponent(/access_token=(\S+)/.exec(mail.data)![1]);
  await request(t.app).post('/v2/auth/me/set-password').set('Authorization', `Bearer ${token}`).send({ password: 'Per-Mail-123' }).expect(204);
});

test('a server without STARTTLS gets neither the password nor the mail; the mail waits in the outbox and the log says why', async ({
  upstream,
  smtpServer,
}) => {
  const smtp = await smtpServer({ tls: 'none' });
  const log = capturedLogger();
  const t = await upstream({ smtpUrl: `smtp://portal:geheim@127.0.0.1:${smtp.port}`, logger: log.logger, smtpTls: smtp.clientTls });
  await forgot(t);
  expect(smtp.logins).toEqual([]);
  expect(smtp.mails).toEqual([]);
  expect(t.outbox()).toHaveLength(1);
  const text = log.raw.join('\n');
  expect(text).toContain('SMTP delivery failed');
  expect(text).not.toContain('coach@example.org');
  expect(text).not.toContain('geheim');
});

test('SMTP_INSECURE=true allows a local relay without STARTTLS', async ({ upstream, smtpServer }) => {
  const smtp = await smtpServer({ tls: 'none' });
  const t = await upstream({ smtpUrl: `smtp://relay:lokal@127.0.0.1:${smtp.port}`, smtpInsecure: true });
  await forgot(t);
  expect(smtp.mails).toHaveLength(1);
  expect(smtp.mails[0].secure).toBe(false);
  expect(smtp.logins).toEqual([{ auth: 'relay:lokal', secure: false }]);
});

test('smtps:// speaks TLS from the first byte', async ({ upstream, smtpServer }) => {
  const smtp = await smtpServer({ tls: 'implicit' });
  const t = await upstream({ smtpUrl: `smtps://portal:geheim@127.0.0.1:${smtp.port}`, smtpTls: smtp.clientTls });
  await forgot(t);
  expect(smtp.mails).toHaveLength(1);
  expect(smtp.mails[0].secure).toBe(true);
});

test('a certificate the client does not trust stops the delivery (the mail goes to the outbox)', async ({ upstream, smtpServer }) => {
  const smtp = await smtpServer({ tls: 'starttls' });
  const t = await upstream({ smtpUrl: `smtp://portal:geheim@127.0.0.1:${smtp.port}` });
  await forgot(t);
  expect(smtp.logins).toEqual([]);
  expect(smtp.mails).toEqual([]);
  expect(t.outbox()).toHaveLength(1);
});

test('when the login is refused the mail lands in the outbox and the log says why without the address', async ({ upstream, smtpServer }) => {
  const smtp = await smtpServer({ rejectAuth: true });
  const log = capturedLogger();
  const t = await upstream({ smtpUrl: `smtp://portal:falsch@127.0.0.1:${smtp.port}`, logger: log.logger, smtpTls: smtp.clientTls });
  await forgot(t);
  expect(smtp.mails).toHaveLength(0);
  expect(t.outbox()).toHaveLength(1);
  const text = log.raw.join('\n');
  expect(text).toContain('535');
  expect(text).not.toContain('coach@example.org');
  expect(text).not.toContain('falsch');
});

test('a line starting with a dot survives the SMTP transfer', async ({ smtpServer }) => {
  const smtp = await smtpServer();
  await sendSmtp(
    { url: `smtp://127.0.0.1:${smtp.port}`, from: 'a@example.org', insecure: false, tls: smtp.clientTls },
    { from: 'a@example.org', to: 'b@example.org', raw: 'Subject: x\r\n\r\n.punkt am Anfang\r\nEnde\r\n' },
  );
  expect(smtp.mails[0].data).toContain('\r\n.punkt am Anfang\r\n');
  expect(smtp.mails[0].auth).toBeNull();
});
