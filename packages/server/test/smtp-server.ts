import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../src/db/embedded.ts';

export interface ReceivedMail {
  /** The SMTP envelope: who the server was told it is from and for. */
  envelope: { from: string; to: string[] };
  message: ParsedMail;
}

export interface TestSmtpServer {
  /** SMTP_URL of this server. */
  url: string;
  received: ReceivedMail[];
  /** Messages refused so far (while `refuseNext` was above zero). */
  refused: number;
  /** Refuse this many of the next messages with 451 (try again later), as a busy server would. */
  refuseNext: number;
  /** Connections opened to this server so far. */
  connections: number;
  /** The next message accepted from now on. */
  nextMail(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server (the smtp-server package) on a free local port, keeping what it receives. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const state = {
    received: [] as ReceivedMail[],
    refused: 0,
    refuseNext: 0,
    connections: 0,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refuseNext > 0) {
          state.refuseNext--;
          state.refused++;
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          return;
        }
        simpleParser(Buffer.concat(chunks)).then((message) => {
          const mail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            message,
          };
          state.received.push(mail);
          callback();
          waiting.shift()?.(mail);
        }, callback);
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    nextMail: () => new Promise<ReceivedMail>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
