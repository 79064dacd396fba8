import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Upstream } from '../context.ts';
import { sendSmtp } from './mailer.ts';
import { DEFAULT_CONFIG } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends a mail: through SMTP when SMTP_URL is configured, otherwise (or when SMTP fails) by writing it
 * as an .eml file to the outbox (DATA_DIR/outbox/<time>-<id>.eml). Log lines name only the file or the
 * fact that a mail went out: the mail holds a secret link and the address is personal data.
 */
export async function sendMail(ctx: Upstream, mail: Mail): Promise<string | null> {
  const now = ctx.clock.now();
  const from = ctx.smtp?.from ?? DEFAULT_CONFIG.mailFrom;
  const encodedSubject = `=?UTF-8?B?${Buffer.from(mail.subject).toString('base64')}?=`;
  const content = [
    `From: ${from}`,
    `To: ${mail.to}`,
    `Subject: ${encodedSubject}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@coach-portal>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    mail.text,
    '',
  ].join('\r\n');
  if (ctx.smtp) {
    try {
      await sendSmtp(ctx.smtp, { from, to: mail.to, raw: content });
      ctx.logger.info('mail sent through SMTP');
      return null;
    } catch (error) {
      ctx.logger.warn({ reason: (error as Error).message }, 'SMTP delivery failed; writing the mail to the outbox instead');
    }
  }
  await mkdir(ctx.outboxDir, { recursive: true, mode: 0o700 });
  await chmod(ctx.outboxDir, 0o700);
  const name = `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
  await writeFile(path.join(ctx.outboxDir, name), content, { mode: 0o600 });
  ctx.logger.info({ outboxFile: name }, 'mail written to outbox');
  return name;
}

/**
 * Origin for links in mails (reset, verification): the configured PUBLIC_URL and nothing a request says. Taking
 * it from Host or X-Forwarded-Host let one request mail a coach a link to any site, carrying a valid token.
 */
export function publicOrigin(ctx: Upstream): string {
  return ctx.publicUrl.replace(/\/+$/, '');
}
