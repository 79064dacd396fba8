import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail { from: string; to: string; auth: string | null; data: string }

/** A minimal SMTP server on a loopback port that accepts every mail and keeps it for the test. */
export async function fakeSmtpServer(options: { rejectAuth?: boolean } = {}) {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const current: ReceivedMail = { from: '', to: '', auth: null, data: '' };
    let inData = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push({ ...current });
            socket.write('250 queued\r\n');
          } else current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const [verb] = line.split(' ');
        switch (verb.toUpperCase()) {
          case 'EHLO': socket.write('250-fake\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n'); break;
          case 'AUTH':
            current.auth = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8');
            socket.write(options.rejectAuth ? '535 authentication failed\r\n' : '235 ok\r\n');
            break;
          case 'MAIL': current.from = line; socket.write('250 ok\r\n'); break;
          case 'RCPT': current.to = line; socket.write('250 ok\r\n'); break;
          case 'DATA': inData = true; socket.write('354 go on\r\n'); break;
          case 'QUIT': socket.end('221 bye\r\n'); break;
          default: socket.write('502 unknown\r\n');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    mails,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
