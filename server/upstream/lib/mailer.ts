import type { ConnectionOptions } from 'node:tls';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';

export interface SmtpSettings {
  /** smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465 (TLS from the first byte). */
  url: string;
  from: string;
  /**
   * SMTP_INSECURE=true: a plain smtp:// connection is allowed when the server offers no STARTTLS (a relay on
   * the same machine or network). Off by default: then a server without STARTTLS gets neither the password
   * nor the mail, whose links are one-time credentials.
   */
  insecure: boolean;
  /** Extra TLS options, e.g. `ca` for a server with a private certificate authority. */
  tls?: ConnectionOptions;
}

/** The address inside "Name <address>". */
function addressOf(value: string): string {
  const match = /<([^>]+)>/.exec(value);
  return (match ? match[1] : value).trim();
}

/**
 * Delivers one message, headers and body already composed (the outbox writes the same text to a file), through
 * nodemailer. Rejects when the server cannot be reached, refuses TLS, the login or the recipient.
 */
export async function sendSmtp(settings: SmtpSettings, message: { from: string; to: string; raw: string }, timeoutMs = 15_000): Promise<void> {
  const url = new URL(settings.url);
  const secure = url.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (secure ? 465 : 587)),
    secure,
    // Without implicit TLS the connection must be upgraded with STARTTLS before AUTH, unless the operator said otherwise.
    requireTLS: !secure && !settings.insecure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // SNI takes host names only; for an address the certificate is checked against its IP entries.
    tls: { ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) ? {} : { servername: url.hostname }), ...settings.tls },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 2,
    // nodemailer's own logging would print addresses and the conversation: off.
    logger: false,
    debug: false,
  });
  try {
    await transport.sendMail({ envelope: { from: addressOf(message.from), to: [addressOf(message.to)] }, raw: message.raw });
  } finally {
    transport.close();
  }
}
