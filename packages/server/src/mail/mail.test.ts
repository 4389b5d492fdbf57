import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WorkerEvents } from 'graphile-worker';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTexts } from '@furniture/contract';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { buildApp, type App } from '../app.ts';
import type { Config } from '../config.ts';
import { advanceJobClock, nextOutcome } from '../jobs/job-clock.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';
import { WORKER_CONCURRENCY } from '../jobs/jobs-plugin.ts';
import { renderMail, type MailContent } from './mail-layout.ts';
import { queueMail, sendMailTask } from './mail-queue.ts';
import { outboxDirectory } from './mailer.ts';

const PUBLIC_URL = 'https://furniture.example.com';

const offerMail: MailContent = {
  heading: 'Anna offered $90 for your <Oak> sofa',
  paragraphs: ['The offer stands for 48 hours.', 'Answer it before it expires & the sofa stays yours.'],
  image: { url: '/uploads/sofa.webp', alt: 'Oak "Chesterfield" sofa' },
  action: { label: 'Answer the offer', path: '/dashboard/conversations/42?offer=7' },
  unsubscribePath: '/unsubscribe?token=abc.def',
};

describe('renderMail', () => {
  const { html, text, unsubscribeUrl } = renderMail(offerMail, PUBLIC_URL);

  it('escapes every value it inserts into the HTML', () => {
    const hostile = renderMail(
      {
        heading: '<script>alert(1)</script>',
        paragraphs: ['<img src=x onerror=alert(1)>'],
        image: { url: 'https://images.example.com/a.webp?x="><script>', alt: '" onload="alert(1)' },
        action: { label: '</a><a href="https://evil.example.com">', path: '/a?b="><script>' },
      },
      PUBLIC_URL,
    ).html;
    expect(hostile).not.toMatch(/<script|<img src=x|" onload="|<a href="https:\/\/evil/);
    expect(hostile).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(hostile).toContain('alt="&quot; onload=&quot;alert(1)"');
  });

  it('builds the heading, paragraphs, image, a button to the app, and a footer with the unsubscribe link', () => {
    expect(html).toContain('Anna offered $90 for your &lt;Oak&gt; sofa</h1>');
    expect(html).toContain('Answer it before it expires &amp; the sofa stays yours.</p>');
    expect(html).toContain(`<img src="${PUBLIC_URL}/uploads/sofa.webp" alt="Oak &quot;Chesterfield&quot; sofa"`);
    expect(html).toContain(`href="${PUBLIC_URL}/dashboard/conversations/42?offer=7"`);
    expect(html).toContain(`<a href="${PUBLIC_URL}/unsubscribe?token=abc.def" style="color:#6b7280">${mailTexts.unsubscribe}</a>`);
    expect(html).toContain(mailTexts.footer);
    expect(unsubscribeUrl).toBe(`${PUBLIC_URL}/unsubscribe?token=abc.def`);
  });

  it('writes the same as plain text, links spelled out', () => {
    expect(text).toBe(
      [
        'Anna offered $90 for your <Oak> sofa',
        '',
        'The offer stands for 48 hours.',
        '',
        'Answer it before it expires & the sofa stays yours.',
        '',
        `Answer the offer: ${PUBLIC_URL}/dashboard/conversations/42?offer=7`,
        '',
        '-- ',
        'Used Furniture co. Ltd',
        mailTexts.footer,
        `${mailTexts.unsubscribe}: ${PUBLIC_URL}/unsubscribe?token=abc.def`,
        '',
      ].join('\n'),
    );
  });

  it('links only into the app, and shows only http(s) images', () => {
    for (const path of ['https://evil.example.com/x', '//evil.example.com/x', 'javascript:alert(1)']) {
      expect(() => renderMail({ heading: 'h', paragraphs: [], action: { label: 'Go', path } }, PUBLIC_URL)).toThrow('links to the app by path');
    }
    expect(() => renderMail({ heading: 'h', paragraphs: [], image: { url: 'javascript:alert(1)', alt: '' } }, PUBLIC_URL)).toThrow('http(s)');
    const external = renderMail({ heading: 'h', paragraphs: [], image: { url: 'https://cdn.example.com/a.webp', alt: 'A' } }, PUBLIC_URL);
    expect(external.html).toContain('src="https://cdn.example.com/a.webp"');
  });
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

async function startApp(config: Partial<Config>): Promise<App> {
  const app = await buildApp({ config: testConfig({ publicUrl: PUBLIC_URL, ...config }), db: database.db, jobs: { recurring: false } });
  await app.ready();
  return app;
}

/** Queues an e-mail in a transaction of its own, as a domain does with the change it is about. */
const queue = (to: string | string[], subject: string, content: MailContent = offerMail) =>
  database.db.transaction((tx) => queueMail(tx, { to, subject, ...renderMail(content, PUBLIC_URL) }));

/** What every sent copy of the offer e-mail must hold. */
function expectOfferMail(message: ParsedMail) {
  expect(message.subject).toBe('New offer on your sofa');
  expect(message.from?.value).toEqual([{ name: 'Used Furniture', address: 'shop@furniture.example.com' }]);
  expect(message.html).toContain('Anna offered $90 for your &lt;Oak&gt; sofa');
  expect(message.html).toContain(`href="${PUBLIC_URL}/dashboard/conversations/42?offer=7"`);
  expect(message.html).toContain(`src="${PUBLIC_URL}/uploads/sofa.webp"`);
  expect(message.text).toContain(`Answer the offer: ${PUBLIC_URL}/dashboard/conversations/42?offer=7`);
  expect(message.text).toContain(`${mailTexts.unsubscribe}: ${PUBLIC_URL}/unsubscribe?token=abc.def`);
  // The unsubscribe link as headers too, for mail clients' own unsubscribe button (RFC 8058).
  expect(message.headerLines.filter((header) => header.key.startsWith('list-')).map((header) => header.line)).toEqual([
    `List-Unsubscribe: <${PUBLIC_URL}/unsubscribe?token=abc.def>`,
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
  ]);
  expect(message.messageId).toMatch(/^<\d+\.\d+@furniture\.example\.com>$/);
}

describe('sending through SMTP_URL', () => {
  let smtp: TestSmtpServer;
  let app: App;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startApp({ mail: { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('delivers a queued e-mail to its recipients with the subject, both bodies and the links', async () => {
    expect(app.mailer.kind).toBe('smtp');
    const delivered = smtp.nextMail();
    const sent = nextOutcome(app, (outcome) => outcome.task === sendMailTask.name);
    await queue(['seller@example.com', 'partner@example.com'], 'New offer on your sofa');
    const { envelope, message } = await delivered;
    expect(await sent).toMatchObject({ status: 'succeeded', attempt: 1 });

    expect(envelope).toEqual({ from: 'shop@furniture.example.com', to: ['seller@example.com', 'partner@example.com'] });
    expect(message.to && !Array.isArray(message.to) && message.to.text).toBe('seller@example.com, partner@example.com');
    expectOfferMail(message);
  });

  it('sends one e-mail after another over the connections it keeps open, not a connection each', async () => {
    const subjects = Array.from({ length: 6 }, (_, index) => `Booking ${index + 1} of your sofa`);
    const connectionsBefore = smtp.connections;
    for (const subject of subjects) await queue('seller@example.com', subject);
    await expect.poll(() => smtp.received.filter((mail) => subjects.includes(mail.message.subject ?? '')).length).toBe(subjects.length);
    // At most one connection for each e-mail being sent at once (the job worker's slots).
    expect(smtp.connections - connectionsBefore).toBeLessThanOrEqual(WORKER_CONCURRENCY);
  });

  it('lets a job that is about to send when the app closes send its e-mail before the connections close', async () => {
    const task = defineTask<Record<string, never>>('test.sends-while-closing');
    const workerEvents: WorkerEvents = new EventEmitter();
    // The job sends only once the app has begun stopping its worker.
    const shutdownBegun = new Promise<void>((resolve) => workerEvents.once('pool:gracefulShutdown', () => resolve()));
    let started!: () => void;
    const inHand = new Promise<void>((resolve) => (started = resolve));
    const closing = await buildApp({
      config: testConfig({ publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' } }),
      db: database.db,
      jobs: { recurring: false, workerEvents },
    });
    const mail = (subject: string, id: string) =>
      closing.mailer.send({ to: 'seller@example.com', subject, html: '<p>Hi</p>', text: 'Hi', queuedAt: new Date().toISOString(), messageId: `<${id}@furniture.example.com>` });
    closing.jobs.handle(task, async (_payload, job) => {
      started();
      await shutdownBegun;
      await mail('Sent while closing', job.id);
    });
    await closing.ready();
    // This app server has sent e-mail before: it holds a connection to the mail server.
    await mail('Sent before closing', 'before');
    const sent = nextOutcome(closing, (outcome) => outcome.task === task.name);
    await enqueueJob(database.db, task, {});
    await inHand;

    await closing.close();
    expect(await sent).toMatchObject({ status: 'succeeded' });
    expect(smtp.received.some((mail) => mail.message.subject === 'Sent while closing')).toBe(true);
  });

  it('retries while the server refuses, with back-off, and delivers once it accepts', async () => {
    smtp.refuseNext = 2;
    const firstRefusal = nextOutcome(app, (outcome) => outcome.task === sendMailTask.name && outcome.attempt === 1);
    await queue('buyer@example.com', 'Your booking was accepted', { heading: 'Good news', paragraphs: ['The seller accepted.'] });
    expect(await firstRefusal).toMatchObject({ status: 'will-retry', error: expect.objectContaining({ responseCode: 451 }) });

    const secondRefusal = nextOutcome(app, (outcome) => outcome.task === sendMailTask.name && outcome.attempt === 2);
    await advanceJobClock(database.db, 60_000);
    expect(await secondRefusal).toMatchObject({ status: 'will-retry' });

    const delivered = smtp.nextMail();
    const accepted = nextOutcome(app, (outcome) => outcome.task === sendMailTask.name && outcome.attempt === 3);
    await advanceJobClock(database.db, 60_000);
    expect(await accepted).toMatchObject({ status: 'succeeded' });
    const { envelope, message } = await delivered;
    expect(envelope.to).toEqual(['buyer@example.com']);
    expect(message.subject).toBe('Your booking was accepted');
    expect(smtp.refused).toBe(2);
    expect(smtp.received.filter((mail) => mail.message.subject === 'Your booking was accepted')).toHaveLength(1);
  });
});

describe('the .eml outbox, without an SMTP server', () => {
  let dataDir: string;
  let app: App;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-mail-'));
    app = await startApp({ dataDir, mail: { smtpUrl: undefined, from: 'Used Furniture <shop@furniture.example.com>' } });
  });
  afterAll(async () => {
    await app?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('writes each e-mail as an .eml file under DATA_DIR/mail', async () => {
    expect(app.mailer.kind).toBe('outbox');
    const sent = nextOutcome(app, (outcome) => outcome.task === sendMailTask.name);
    await queue('seller@example.com', 'New offer on your sofa');
    expect(await sent).toMatchObject({ status: 'succeeded' });

    const files = await fs.readdir(outboxDirectory(dataDir));
    expect(files).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d-]+Z-\d+-\d+-furniture-example-com\.eml$/)]);
    const message = await simpleParser(await fs.readFile(path.join(outboxDirectory(dataDir), files[0]!)));
    expect(message.to && !Array.isArray(message.to) && message.to.text).toBe('seller@example.com');
    expectOfferMail(message);
  });
});
