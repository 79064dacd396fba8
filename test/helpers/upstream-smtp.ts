import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** "user:password" the client logged in with, null without AUTH. */
  auth: string | null;
  /** Whether the connection was encrypted (implicit TLS or STARTTLS) when the mail came in. */
  secure: boolean;
  data: string;
}

let certificate: { key: string; cert: string } | undefined;
/** A self-signed certificate for 127.0.0.1, made once per test process with openssl. */
export function testCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificate = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A real SMTP server (smtp-server) on a loopback port that keeps every mail and every login for the test.
 * tls: 'starttls' offers STARTTLS (the default), 'implicit' speaks TLS from the first byte (smtps://),
 * 'none' offers no encryption at all (and accepts a login in clear, to show the client never sends one).
 */
export async function fakeSmtpServer(options: { tls?: 'starttls' | 'implicit' | 'none'; rejectAuth?: boolean } = {}) {
  const mode = options.tls ?? 'starttls';
  const mails: ReceivedMail[] = [];
  const logins: { auth: string; secure: boolean }[] = [];
  const { key, cert } = testCertificate();
  const server = new SMTPServer({
    secure: mode === 'implicit',
    key,
    cert,
    disabledCommands: mode === 'none' ? ['STARTTLS'] : [],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ auth: `${auth.username}:${auth.password}`, secure: session.secure });
      if (options.rejectAuth) callback(Object.assign(new Error('authentication failed'), { responseCode: 535 }));
      else callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          auth: logins.at(-1)?.auth ?? null,
          secure: session.secure,
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    logins,
    /** TLS options a client needs to trust this server's certificate. */
    clientTls: { ca: cert },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
