import { afterEach, expect, test } from 'vitest';
import request from 'supertest';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';
import { fakeSmtpServer } from '../../helpers/upstream-smtp.ts';
import { capturedLogger } from '../../helpers/upstream-log.ts';

let t: TestUpstream;
let smtp: Awaited<ReturnType<typeof fakeSmtpServer>> | undefined;
afterEach(async () => {
  await t?.close();
  await smtp?.close();
  smtp = undefined;
});

test('with SMTP_URL the reset mail is sent through SMTP and not kept in the outbox', async () => {
  smtp = await fakeSmtpServer();
  t = await createTestUpstream({ smtpUrl: `smtp://portal:geheim%21@127.0.0.1:${smtp.port}`, mailFrom: 'Nachsorge <no-reply@example.org>' });
  await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
  expect(smtp.mails).toHaveLength(1);
  const mail = smtp.mails[0];
  expect(mail.auth).toBe('\0portal\0geheim!');
  expect(mail.from).toBe('MAIL FROM:<no-reply@example.org>');
  expect(mail.to).toBe('RCPT TO:<coach@example.org>');
  expect(mail.data).toMatch(/reset-password\?access_token=\S+/);
  expect(t.outbox()).toHaveLength(0);
  // The link from the mail works.
  const token = decodeURIComponent(/access_token=(\S+)/.exec(mail.data)![1]);
  await request(t.app).post('/v2/auth/me/set-password').set('Authorization', `Bearer ${token}`).send({ password: 'Per-Mail-123' }).expect(204);
});

test('when SMTP fails the mail lands in the outbox and the log says why without the address', async () => {
  smtp = await fakeSmtpServer({ rejectAuth: true });
  const log = capturedLogger();
  t = await createTestUpstream({ smtpUrl: `smtp://portal:falsch@127.0.0.1:${smtp.port}`, logger: log.logger });
  await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
  expect(smtp.mails).toHaveLength(0);
  expect(t.outbox()).toHaveLength(1);
  const text = log.raw.join('\n');
  expect(text).toContain('SMTP server answered 535');
  expect(text).not.toContain('coach@example.org');
  expect(text).not.toContain('falsch');
});

test('a line starting with a dot survives the SMTP transfer', async () => {
  smtp = await fakeSmtpServer();
  const { sendSmtp } = await import('../../../server/upstream/lib/smtp.ts');
  await sendSmtp(`smtp://127.0.0.1:${smtp.port}`, { from: 'a@example.org', to: 'b@example.org', data: 'Subject: x\r\n\r\n.punkt am Anfang\r\nEnde' });
  expect(smtp.mails[0].data).toContain('\n.punkt am Anfang\n');
  expect(smtp.mails[0].auth).toBeNull();
});
