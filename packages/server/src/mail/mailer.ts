import fs from 'node:fs/promises';
import path from 'node:path';
import type nodemailerModule from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

/** An e-mail as it is queued and sent. */
export interface MailMessage {
  to: string | readonly string[];
  subject: string;
  html: string;
  text: string;
  /** Sets the List-Unsubscribe headers, so that mail clients offer a one-click unsubscribe. */
  unsubscribeUrl?: string;
}

export interface OutgoingMail extends MailMessage {
  /** The message's Message-ID, the same on every attempt to send it. */
  messageId: string;
  /** ISO time it was queued: the message's Date. */
  queuedAt: string;
}

export interface Mailer {
  /** 'smtp' through SMTP_URL, or 'outbox': .eml files under DATA_DIR/mail. */
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The folder of the .eml outbox, used when no SMTP server is configured. */
export const outboxDirectory = (dataDir: string) => path.join(dataDir, 'mail');

/** Short enough that a server that does not answer holds a worker for seconds, not minutes. */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

function headersOf(mail: OutgoingMail): Record<string, string> {
  if (!mail.unsubscribeUrl) return {};
  return { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

const envelopeOf = (mail: OutgoingMail, from: string) => ({
  from,
  to: [mail.to].flat(),
  subject: mail.subject,
  html: mail.html,
  text: mail.text,
  messageId: mail.messageId,
  date: new Date(mail.queuedAt),
  headers: headersOf(mail),
});

/**
 * A nodemailer transport made on first use: most app servers send e-mail rarely, and nodemailer
 * need not be loaded at start-up.
 */
function lazyTransport<T extends Transporter>(make: (nodemailer: typeof nodemailerModule) => T) {
  let transport: Promise<T> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((module) => make(module.default))),
    close: () => void transport?.then((made) => made.close()),
  };
}

/**
 * Sends through SMTP_URL when it is set. Without it, each message is written as an .eml file
 * (open it with any mail program) under DATA_DIR/mail, named after the time it was queued and its
 * Message-ID, so that sending it again rewrites the same file.
 */
export function createMailer(config: Pick<Config, 'mail' | 'dataDir'>): Mailer {
  const { smtpUrl } = config.mail;
  if (smtpUrl) {
    // Pooled: connections stay open from one e-mail to the next. A connection each, with its
    // greeting and hand-shake, cost the app and the mail server two to five times the CPU an
    // e-mail takes over an open one, and capped the e-mails a server sends (decision 25).
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ url: smtpUrl, pool: true, ...SMTP_TIMEOUTS }));
    return {
      kind: 'smtp',
      async send(mail) {
        await (await transport.get()).sendMail(envelopeOf(mail, config.mail.from));
      },
      close: transport.close,
    };
  }
  const directory = outboxDirectory(config.dataDir);
  const composer = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true }));
  return {
    kind: 'outbox',
    async send(mail) {
      const { message } = await (await composer.get()).sendMail(envelopeOf(mail, config.mail.from));
      const name = `${mail.queuedAt.replace(/[:.]/g, '-')}-${mail.messageId.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.eml`;
      await fs.mkdir(directory, { recursive: true });
      // Written whole or not at all: a reader never sees half a message.
      const partial = path.join(directory, `.${name}.partial`);
      await fs.writeFile(partial, message as Buffer);
      await fs.rename(partial, path.join(directory, name));
    },
    close: composer.close,
  };
}
