import fs from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { expect } from 'vitest';
import { outboxDirectory } from '../../../server/src/mail/mailer.ts';
import type { Marketplace } from './marketplace.ts';

/** The subjects and texts of the .eml files the marketplace wrote to its outbox so far (no SMTP server in browser tests). */
async function outbox(market: Marketplace): Promise<Array<{ to: string; subject: string; text: string }>> {
  const directory = outboxDirectory(market.config.dataDir);
  const files = await fs.readdir(directory).catch(() => []);
  return Promise.all(
    files.sort().map(async (file) => {
      const message = await simpleParser(await fs.readFile(path.join(directory, file)));
      const to = message.to && !Array.isArray(message.to) ? message.to.text : '';
      return { to, subject: message.subject ?? '', text: message.text ?? '' };
    }),
  );
}

/**
 * The app link (path and query) in the latest e-mail to `to` with this subject, once it is in the
 * outbox: what a person clicks in the e-mail.
 */
export async function mailedLink(market: Marketplace, to: string, subject: string, linkPath: string): Promise<string> {
  const pattern = new RegExp(`${market.url}(${linkPath}\\?token=[\\w-]+)`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await outbox(market)).findLast((message) => message.to === to && message.subject === subject);
        link = mail && pattern.exec(mail.text)?.[1];
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeDefined();
  return link!;
}

/** Waits until an e-mail to `to` with this subject is in the outbox; answers its text. */
export async function mailed(market: Marketplace, to: string, subject: string): Promise<string> {
  let text: string | undefined;
  await expect
    .poll(
      async () => {
        text = (await outbox(market)).findLast((message) => message.to === to && message.subject === subject)?.text;
        return text;
      },
      { timeout: 10_000 },
    )
    .toBeDefined();
  return text!;
}
