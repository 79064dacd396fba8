import net from 'node:net';
import tls from 'node:tls';
import os from 'node:os';

export interface SmtpMessage {
  from: string;
  to: string;
  /** The full message, headers and body, CRLF line ends. */
  data: string;
}

/**
 * A small SMTP client: smtp://user:pass@host:587 (STARTTLS when the server offers it) or
 * smtps://user:pass@host:465 (TLS from the start); AUTH PLAIN when credentials are given.
 * Enough for the few mails of this server (reset and verification links), no dependency.
 */
export async function sendSmtp(url: string, message: SmtpMessage, timeoutMs = 15_000): Promise<void> {
  const target = new URL(url);
  const implicitTls = target.protocol === 'smtps:';
  if (!implicitTls && target.protocol !== 'smtp:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const host = target.hostname;
  const port = Number(target.port || (implicitTls ? 465 : 587));
  let socket: net.Socket = implicitTls ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
  const session = new ReplyReader(socket, timeoutMs);
  try {
    await session.expect(220);
    let features = await session.command(`EHLO ${os.hostname() || 'localhost'}`, 250);
    if (!implicitTls && /^STARTTLS$/im.test(features)) {
      await session.command('STARTTLS', 220);
      socket = tls.connect({ socket, servername: host });
      await new Promise<void>((resolve, reject) => {
        socket.once('secureConnect', () => resolve());
        socket.once('error', reject);
      });
      session.attach(socket);
      features = await session.command(`EHLO ${os.hostname() || 'localhost'}`, 250);
    }
    if (target.username) {
      const credentials = Buffer.from(`\0${decodeURIComponent(target.username)}\0${decodeURIComponent(target.password)}`).toString('base64');
      await session.command(`AUTH PLAIN ${credentials}`, 235);
    }
    await session.command(`MAIL FROM:<${addressOf(message.from)}>`, 250);
    await session.command(`RCPT TO:<${addressOf(message.to)}>`, [250, 251]);
    await session.command('DATA', 354);
    // Dot-stuffing: a line that starts with "." would otherwise end the message early.
    const body = message.data.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    await session.command(`${body}${body.endsWith('\r\n') ? '' : '\r\n'}.`, 250);
    await session.command('QUIT', 221).catch(() => {});
  } finally {
    socket.destroy();
  }
}

function addressOf(value: string): string {
  const match = /<([^>]+)>/.exec(value);
  return (match ? match[1] : value).trim();
}

/** Collects multi-line SMTP replies ("250-..." lines, then "250 ..."). */
class ReplyReader {
  #socket!: net.Socket;
  #buffer = '';
  #lines: string[] = [];
  #waiting: { resolve: (reply: { code: number; text: string }) => void; reject: (error: Error) => void } | null = null;
  #error: Error | null = null;
  readonly #timeoutMs: number;
  readonly #onData = (chunk: Buffer) => this.#receive(chunk.toString('utf8'));
  readonly #onError = (error: Error) => this.#fail(error);
  readonly #onClose = () => this.#fail(new Error('SMTP server closed the connection'));
  constructor(socket: net.Socket, timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.attach(socket);
  }
  attach(socket: net.Socket) {
    if (this.#socket) {
      this.#socket.off('data', this.#onData).off('error', this.#onError).off('close', this.#onClose);
    }
    this.#socket = socket;
    socket.on('data', this.#onData).on('error', this.#onError).on('close', this.#onClose);
  }
  #fail(error: Error) {
    this.#error ??= error;
    this.#waiting?.reject(error);
    this.#waiting = null;
  }
  #receive(text: string) {
    this.#buffer += text;
    let index: number;
    while ((index = this.#buffer.indexOf('\n')) >= 0) {
      const line = this.#buffer.slice(0, index).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(index + 1);
      this.#lines.push(line);
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), text: this.#lines.map((l) => l.slice(4)).join('\n') };
        this.#lines = [];
        this.#waiting?.resolve(reply);
        this.#waiting = null;
      }
    }
  }
  async expect(codes: number | number[]): Promise<string> {
    if (this.#error) throw this.#error;
    const wanted = Array.isArray(codes) ? codes : [codes];
    const reply = await new Promise<{ code: number; text: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('SMTP server did not answer in time')), this.#timeoutMs);
      this.#waiting = {
        resolve: (r) => { clearTimeout(timer); resolve(r); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
    });
    if (!wanted.includes(reply.code)) throw new Error(`SMTP server answered ${reply.code}`);
    return reply.text;
  }
  command(line: string, codes: number | number[]): Promise<string> {
    const answer = this.expect(codes);
    this.#socket.write(`${line}\r\n`);
    return answer;
  }
}
