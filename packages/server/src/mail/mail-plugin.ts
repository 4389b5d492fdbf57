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

/**
 * The Message-ID of an e-mail a job sends: the same on every attempt of the job, so a copy delivered
 * twice (the server accepted it, the worker died before recording it) is recognisable as one.
 */
export const messageIdOf = (queuedAt: string, jobId: string, host: string) => `<${Date.parse(queuedAt)}.${jobId}@${host}>`;

/** The e-mail service: sends the queued e-mails through SMTP_URL, or into the .eml outbox. */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const mailer = createMailer(app.config);
    app.decorate('mailer', mailer);
    const host = new URL(app.config.publicUrl).hostname;
    app.jobs.handle(sendMailTask, async (mail, job) => {
      await mailer.send({ ...mail, messageId: messageIdOf(mail.queuedAt, job.id, host) });
    });
    // Once the jobs are done, not before: a job still sending when the app closes needs its connection.
    app.jobs.onStopped(() => mailer.close());
  },
  { name: 'mail', dependencies: ['jobs'] },
);
