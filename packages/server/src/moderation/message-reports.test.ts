import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REPORT_CONTEXT_MESSAGES, trustTexts, type ReportContext, type ReportedTarget } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { productAndBuyer, send, startThread } from '../../test/conversation-fixtures.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { auditLog, chatMessages, liveEvents, reports } from '../db/schema/index.ts';

const t = setupTestApp();
// A statement sent on a connection still busy with another fails the test, where node-postgres only
// warns (and will refuse it): the queue and a report's context are read inside a transaction.
process.throwDeprecation = true;

type Headers = Record<string, string>;

const adminHeaders = async () => bearer(t.app, (await createUser(t.db, { role: 'admin', password: null })).id);

async function fileReport(headers: Headers, payload: object) {
  return t.app.inject({ method: 'POST', url: '/api/reports', headers, payload });
}

async function act(headers: Headers, reportId: string, action: string, reason = 'Against the rules') {
  return t.app.inject({ method: 'POST', url: `/api/admin/reports/${reportId}/actions`, headers, payload: { action, reason } });
}

async function messagesOf(headers: Headers, conversationId: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/conversations/${conversationId}/messages?limit=100`, headers });
  expect(response.statusCode).toBe(200);
  return response.json().data as Array<{ _id: string; text: string; removed: boolean }>;
}

/** A thread where the seller answered the buyer; the buyer reports the seller's answer. */
async function reportedMessage() {
  const people = await productAndBuyer(t.app, t.db);
  const conversationId = await startThread(t.app, people.buyerHeaders, people.product.id, 'Is it still available?');
  const sent = await send(t.app, people.sellerHeaders, conversationId, 'Yes. Pay me by bank transfer outside the site.');
  const messageId = sent.json().data._id as string;
  const filed = await fileReport(people.buyerHeaders, { targetType: 'message', targetId: messageId, reason: 'scam', note: 'Wants a bank transfer' });
  expect(filed.statusCode).toBe(201);
  return { ...people, conversationId, messageId, reportId: filed.json().data.id as string };
}

async function auditOf(action: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.action, action));
}

describe('reporting a message', () => {
  it('files the other participant’s report, one open report per reporter per message', async () => {
    const { messageId, reportId, buyer, buyerHeaders } = await reportedMessage();
    const [row] = await t.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row).toMatchObject({ reporterId: buyer.id, targetType: 'message', targetId: messageId, reason: 'scam', note: 'Wants a bank transfer', status: 'open' });
    const again = await fileReport(buyerHeaders, { targetType: 'message', targetId: messageId, reason: 'other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(trustTexts.alreadyReported);
  });

  it('refuses the message’s author with a sentence saying why', async () => {
    const { messageId, sellerHeaders } = await reportedMessage();
    const own = await fileReport(sellerHeaders, { targetType: 'message', targetId: messageId, reason: 'other' });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(trustTexts.cannotReportOwnMessage);
  });

  it('answers 404 to anyone outside the thread, admins included, exactly as for a message that does not exist', async () => {
    const { messageId } = await reportedMessage();
    const stranger = await bearer(t.app, (await createUser(t.db, { role: 'buyer', password: null })).id);
    const missing = await fileReport(stranger, { targetType: 'message', targetId: '00000000-0000-4000-8000-000000000000', reason: 'other' });
    expect(missing.statusCode).toBe(404);
    for (const headers of [stranger, await adminHeaders()]) {
      const response = await fileReport(headers, { targetType: 'message', targetId: messageId, reason: 'other' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    expect(await t.db.select().from(reports).where(eq(reports.targetId, messageId))).toHaveLength(1);
  });
});

describe('message reports in the moderation queue', () => {
  it('shows the reported message’s text, author and thread product, and audits the read', async () => {
    const { messageId, seller, product } = await reportedMessage();
    const headers = await adminHeaders();
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/reports', headers });
    expect(response.statusCode).toBe(200);
    const target = (response.json().data as ReportedTarget[]).find((candidate) => candidate.targetId === messageId);
    expect(target).toMatchObject({
      targetType: 'message',
      title: product.productName,
      ownerId: seller.id,
      ownerEmail: seller.email,
      message: {
        _id: messageId,
        senderId: seller.id,
        senderName: seller.name,
        text: 'Yes. Pay me by bank transfer outside the site.',
        productId: product.id,
        productName: product.productName,
        removedAt: null,
      },
    });
    expect(await auditOf('report.read-message')).toEqual(
      expect.arrayContaining([expect.objectContaining({ targetType: 'message', targetId: messageId, targetLabel: product.productName })]),
    );
  });

  it('answers the thread around the reported message to an admin, and writes the read to the audit log', async () => {
    const people = await productAndBuyer(t.app, t.db);
    const conversationId = await startThread(t.app, people.buyerHeaders, people.product.id, 'Message 0');
    const ids: string[] = [];
    for (let index = 1; index <= 2 * REPORT_CONTEXT_MESSAGES + 5; index += 1) {
      const headers = index % 2 ? people.sellerHeaders : people.buyerHeaders;
      ids.push((await send(t.app, headers, conversationId, `Message ${index}`)).json().data._id as string);
    }
    // The 15th message, from the seller: 14 earlier (10 shown) and 10 later.
    const reported = ids[14]!;
    const filed = await fileReport(people.buyerHeaders, { targetType: 'message', targetId: reported, reason: 'offensive' });
    const reportId = filed.json().data.id as string;

    const admin = await createUser(t.db, { role: 'admin', password: null });
    const response = await t.app.inject({ method: 'GET', url: `/api/admin/reports/${reportId}/context`, headers: await bearer(t.app, admin.id) });
    expect(response.statusCode).toBe(200);
    const context = response.json().data as ReportContext;
    expect(context).toMatchObject({
      reportId,
      conversationId,
      productName: people.product.productName,
      buyerName: people.buyer.name,
      sellerName: people.seller.name,
      reportedMessageId: reported,
    });
    expect(context.messages.map((message) => message.text)).toEqual(
      Array.from({ length: 2 * REPORT_CONTEXT_MESSAGES + 1 }, (_, index) => `Message ${index + 5}`),
    );
    const entries = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'report.read-thread'), eq(auditLog.actorId, admin.id)));
    expect(entries).toEqual([expect.objectContaining({ targetType: 'conversation', targetId: conversationId, reason: trustTexts.threadReadReason(reportId) })]);

    // Resolved reports still open the thread, for a later look at what was decided.
    await act(await adminHeaders(), reportId, 'dismiss');
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/reports/${reportId}/context`, headers: await adminHeaders() })).statusCode).toBe(200);
  });

  it('keeps threads private: no admin reads a thread by the conversation calls, nor the context of a report of a listing', async () => {
    const { conversationId, product } = await reportedMessage();
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const headers = await bearer(t.app, admin.id);
    const thread = await t.app.inject({ method: 'GET', url: `/api/conversations/${conversationId}/messages`, headers });
    expect(thread.statusCode).toBe(404);

    const reporter = await bearer(t.app, (await createUser(t.db, { role: 'buyer', password: null })).id);
    const listingReport = (await fileReport(reporter, { targetType: 'product', targetId: product.id, reason: 'other' })).json().data.id as string;
    const notMessage = await t.app.inject({ method: 'GET', url: `/api/admin/reports/${listingReport}/context`, headers });
    expect(notMessage.statusCode).toBe(404);
    expect(notMessage.json().message).toBe(trustTexts.notAMessageReport);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/admin/reports/00000000-0000-4000-8000-000000000000/context', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(trustTexts.reportUnknown);
    expect(await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'report.read-thread'), eq(auditLog.actorId, admin.id)))).toEqual([]);
  });

  it('refuses the context to people who are not admins, the thread’s own participants included', async () => {
    const { reportId, conversationId, buyerHeaders, sellerHeaders } = await reportedMessage();
    for (const headers of [buyerHeaders, sellerHeaders]) {
      expect((await t.app.inject({ method: 'GET', url: `/api/admin/reports/${reportId}/context`, headers })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/reports/${reportId}/context` })).statusCode).toBe(401);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, conversationId))).toEqual([]);
  });
});

describe('acting on a message report', () => {
  it('remove replaces the text for both participants, tells them at once, is audited, and the message cannot be reported again', async () => {
    const { messageId, reportId, conversationId, buyer, seller, buyerHeaders, sellerHeaders } = await reportedMessage();
    const response = await act(await adminHeaders(), reportId, 'remove', 'Asks for payment outside the marketplace');
    expect(response.json()).toEqual({ success: true, message: trustTexts.messageRemoved });

    for (const headers of [buyerHeaders, sellerHeaders]) {
      const removed = (await messagesOf(headers, conversationId)).find((message) => message._id === messageId);
      expect(removed).toMatchObject({ text: trustTexts.messageRemovedByModeration, removed: true });
    }
    // The other messages read as written.
    expect((await messagesOf(buyerHeaders, conversationId)).find((message) => message._id !== messageId)).toMatchObject({
      text: 'Is it still available?',
      removed: false,
    });
    // The text stays in the database as the record the admin judged.
    const [row] = await t.db.select().from(chatMessages).where(eq(chatMessages.id, messageId));
    expect(row).toMatchObject({ text: 'Yes. Pay me by bank transfer outside the site.', removedAt: expect.any(Date) });
    const [resolved] = await t.db.select().from(reports).where(eq(reports.id, reportId));
    expect(resolved!.status).toBe('actioned');
    expect(await t.db.select().from(auditLog).where(and(eq(auditLog.targetId, messageId), eq(auditLog.action, 'report.remove')))).toEqual([
      expect.objectContaining({ targetType: 'message', reason: 'Asks for payment outside the marketplace' }),
    ]);
    const events = await t.db.select().from(liveEvents).where(eq(liveEvents.type, 'message.removed'));
    expect(events.map((event) => event.userId).sort()).toEqual([buyer.id, seller.id].sort());
    expect(events[0]!.data).toEqual({ conversationId, messageId });

    const again = await fileReport(buyerHeaders, { targetType: 'message', targetId: messageId, reason: 'other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(trustTexts.messageAlreadyRemoved);
  });

  it('suspend suspends the message’s author; hide and restore are refused with no audit entry', async () => {
    const { messageId, reportId, seller } = await reportedMessage();
    const headers = await adminHeaders();
    for (const action of ['hide', 'restore']) {
      const refused = await act(headers, reportId, action);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(trustTexts.actionNotForMessage);
    }
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, messageId))).toEqual([]);

    const response = await act(headers, reportId, 'suspend', 'Scams buyers');
    expect(response.json().message).toBe(trustTexts.moderationDone.suspend);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: seller.email, password: DEFAULT_TEST_PASSWORD } });
    expect(signIn.statusCode).toBe(403);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, messageId))).toEqual([
      expect.objectContaining({ action: 'report.suspend', targetType: 'message' }),
    ]);
  });

  it('dismiss closes the report and leaves the message as written', async () => {
    const { messageId, reportId, conversationId, buyerHeaders } = await reportedMessage();
    expect((await act(await adminHeaders(), reportId, 'dismiss')).json().message).toBe(trustTexts.moderationDone.dismiss);
    expect((await messagesOf(buyerHeaders, conversationId)).find((message) => message._id === messageId)).toMatchObject({ removed: false });
  });
});
