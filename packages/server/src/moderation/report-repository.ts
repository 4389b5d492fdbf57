import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { CreateReportBody, Report, ReportedTarget, ReportQueueStatus, ReportStatus, ReportTargetType } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { auditLog, listingAppeals, products, reports, users } from '../db/schema/index.ts';
import { latestAppealsOf, toAppeal } from '../products/appeal-repository.ts';
import { reportedMessagesAmong } from './message-reports.ts';

export type ReportRow = typeof reports.$inferSelect;

export const toReport = (row: ReportRow): Report => ({
  _id: row.id,
  id: row.id,
  reporterId: row.reporterId,
  targetType: row.targetType,
  targetId: row.targetId,
  reason: row.reason,
  note: row.note,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
});

/** Files a report; answers undefined when the reporter already has an open one of this target. */
export async function insertReport(tx: Executor, reporterId: string, body: CreateReportBody): Promise<ReportRow | undefined> {
  const [row] = await tx
    .insert(reports)
    .values({ reporterId, targetType: body.targetType, targetId: body.targetId, reason: body.reason, note: body.note || null })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function lockReport(tx: Executor, reportId: string): Promise<ReportRow | undefined> {
  const [row] = await tx.select().from(reports).where(eq(reports.id, reportId)).for('update');
  return row;
}

/** A report, open or resolved. */
export async function findReport(db: Executor, reportId: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, reportId));
  return row;
}

/** Closes every open report of a target, and clears a listing's `reported` flag with them. */
export async function resolveReportsOf(tx: Executor, target: { targetType: ReportTargetType; targetId: string }, status: Exclude<ReportStatus, 'open'>) {
  await tx
    .update(reports)
    .set({ status, resolvedAt: new Date() })
    .where(and(eq(reports.targetType, target.targetType), eq(reports.targetId, target.targetId), eq(reports.status, 'open')));
  if (target.targetType === 'product') await tx.update(products).set({ reported: false }).where(eq(products.id, target.targetId));
}

/** At most this many targets in one answer of the queue: the most-reported first. */
export const REPORT_QUEUE_LIMIT = 100;

/**
 * The moderation queue. `open`: listings whose seller appealed first (longest waiting first), then
 * targets with open reports, most-reported first (then the longest waiting). `closed`: targets with
 * reports already handled, the latest handled first. Each comes with what an admin needs to judge
 * it: its details, its appeal, its other reports and what admins did about it before.
 */
export async function listReportQueue(db: Executor, status: ReportQueueStatus): Promise<ReportedTarget[]> {
  const inStatus = status === 'open' ? eq(reports.status, 'open') : ne(reports.status, 'open');
  // One statement after another: the queue is read in its caller's transaction, on one connection.
  const grouped = await db
    .select({ targetType: reports.targetType, targetId: reports.targetId, reportCount: sql<number>`count(*)::int` })
    .from(reports)
    .where(inStatus)
    .groupBy(reports.targetType, reports.targetId)
    .orderBy(
      ...(status === 'open' ? [desc(sql`count(*)`), sql`min(${reports.createdAt})`] : [desc(sql`max(${reports.resolvedAt})`)]),
    )
    .limit(REPORT_QUEUE_LIMIT);
  const appealed =
    status === 'open'
      ? await db
          .select({ targetId: listingAppeals.productId })
          .from(listingAppeals)
          .where(eq(listingAppeals.status, 'pending'))
          .orderBy(listingAppeals.createdAt)
          .limit(REPORT_QUEUE_LIMIT)
      : [];
  const key = (target: { targetType: ReportTargetType; targetId: string }) => `${target.targetType}:${target.targetId}`;
  const counts = new Map(grouped.map((target) => [key(target), target.reportCount]));
  const appealedTargets = appealed.map((appeal) => ({ targetType: 'product' as const, targetId: appeal.targetId }));
  const appealedKeys = new Set(appealedTargets.map(key));
  const targets = [...appealedTargets, ...grouped.filter((target) => !appealedKeys.has(key(target)))]
    .slice(0, REPORT_QUEUE_LIMIT)
    .map((target) => ({ ...target, reportCount: counts.get(key(target)) ?? 0 }));
  if (targets.length === 0) return [];

  const targetIds = targets.map((target) => target.targetId);
  const messageIds = targets.filter((target) => target.targetType === 'message').map((target) => target.targetId);
  const targetReports = await db.select().from(reports).where(inArray(reports.targetId, targetIds)).orderBy(reports.createdAt);
  const actions = await db
    .select({ targetId: auditLog.targetId, action: auditLog.action, reason: auditLog.reason, actorEmail: auditLog.actorEmail, createdAt: auditLog.createdAt })
    .from(auditLog)
    .where(inArray(auditLog.targetId, targetIds))
    .orderBy(desc(auditLog.id));
  const appeals = await latestAppealsOf(db, targets.filter((target) => target.targetType === 'product').map((target) => target.targetId));
  const productRows = await db
    .select({
      id: products.id,
      productName: products.productName,
      moderation: products.moderation,
      sellerId: users.id,
      sellerEmail: users.email,
      sellerSuspendedAt: users.suspendedAt,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(inArray(products.id, targetIds));
  const userRows = await db
    .select({ id: users.id, name: users.name, email: users.email, suspendedAt: users.suspendedAt })
    .from(users)
    .where(inArray(users.id, targetIds));
  const messageRows = await reportedMessagesAmong(db, messageIds);

  return targets.map((target) => {
    const product = target.targetType === 'product' ? productRows.find((row) => row.id === target.targetId) : undefined;
    const user = target.targetType === 'user' ? userRows.find((row) => row.id === target.targetId) : undefined;
    const ofTarget = targetReports.filter((row) => row.targetType === target.targetType && row.targetId === target.targetId);
    const appeal = target.targetType === 'product' ? appeals.get(target.targetId) : undefined;
    const reported = target.targetType === 'message' ? messageRows.find((row) => row.message._id === target.targetId) : undefined;
    return {
      targetType: target.targetType,
      targetId: target.targetId,
      // A target deleted since it was reported still shows, so its reports can be dismissed.
      title: product?.productName ?? user?.name ?? reported?.message.productName ?? '',
      ownerId: product?.sellerId ?? user?.id ?? reported?.message.senderId ?? null,
      ownerEmail: product?.sellerEmail ?? user?.email ?? reported?.authorEmail ?? null,
      moderation: product?.moderation ?? null,
      suspended: Boolean(product?.sellerSuspendedAt ?? user?.suspendedAt) || Boolean(reported?.authorSuspended),
      message: reported?.message ?? null,
      reportCount: target.reportCount,
      reports: ofTarget.filter((row) => (row.status === 'open') === (status === 'open')).map(toReport),
      appeal: appeal ? toAppeal(appeal) : null,
      history: {
        reports: ofTarget
          .filter((row) => (row.status === 'open') !== (status === 'open'))
          .reverse()
          .map(toReport),
        actions: actions
          .filter((entry) => entry.targetId === target.targetId)
          .map(({ targetId: _, createdAt, ...entry }) => ({ ...entry, createdAt: createdAt.toISOString() })),
      },
    };
  });
}
