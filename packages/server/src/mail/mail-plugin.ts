import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendMailTask } from './mail-queue.ts';
import { createMailer, type Mailer } from './mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where this app server's e-mail goes. Domains queue e-mail with `queueMail`. */
    mailer: Mailer;
  }
}

/** The e-mail service: sends the queued e-mails through SMTP_URL, or into the .eml outbox. */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const mailer = createMailer(app.config);
    app.decorate('mailer', mailer);
    const host = new URL(app.config.publicUrl).hostname;
    app.jobs.handle(sendMailTask, async (mail, job) => {
      // The same Message-ID on every attempt: a copy delivered twice is recognisable as one.
      await mailer.send({ ...mail, messageId: `<${Date.parse(mail.queuedAt)}.${job.id}@${host}>` });
    });
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail', dependencies: ['jobs'] },
);
