import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CreateReportBody, Report, ReportedTarget, ReportStatus, ReportTargetType } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { products, reports, users } from '../db/schema/index.ts';
import { reportedMessagesAmong } from './message-reports.ts';

export type ReportRow = typeof reports.$inferSelect;

export const toReport = (row: ReportRow): Report => ({
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
 * The moderation queue: targets with open reports, most-reported first (then the longest waiting),
 * each with its open reports and what an admin needs to judge it.
 */
export async function listReportQueue(db: Executor): Promise<ReportedTarget[]> {
  const targets = await db
    .select({
      targetType: reports.targetType,
      targetId: reports.targetId,
      reportCount: sql<number>`count(*)::int`,
      firstReportedAt: sql<Date>`min(${reports.createdAt})`,
    })
    .from(reports)
    .where(eq(reports.status, 'open'))
    .groupBy(reports.targetType, reports.targetId)
    .orderBy(desc(sql`count(*)`), sql`min(${reports.createdAt})`)
    .limit(REPORT_QUEUE_LIMIT);
  if (targets.length === 0) return [];

  const targetIds = targets.map((target) => target.targetId);
  const messageIds = targets.filter((target) => target.targetType === 'message').map((target) => target.targetId);
  const [openReports, productRows, userRows, messageRows] = await Promise.all([
    db
      .select()
      .from(reports)
      .where(and(eq(reports.status, 'open'), inArray(reports.targetId, targetIds)))
      .orderBy(reports.createdAt),
    db
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
      .where(inArray(products.id, targetIds)),
    db
      .select({ id: users.id, name: users.name, email: users.email, suspendedAt: users.suspendedAt })
      .from(users)
      .where(inArray(users.id, targetIds)),
    reportedMessagesAmong(db, messageIds),
  ]);

  return targets.map((target) => {
    const product = target.targetType === 'product' ? productRows.find((row) => row.id === target.targetId) : undefined;
    const user = target.targetType === 'user' ? userRows.find((row) => row.id === target.targetId) : undefined;
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
      reports: openReports
        .filter((row) => row.targetType === target.targetType && row.targetId === target.targetId)
        .map(toReport),
    };
  });
}
