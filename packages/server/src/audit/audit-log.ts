import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AUDIT_PAGE_DEFAULT_LIMIT, type AuditAction, type AuditEntry, type AuditQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';

export interface AuditRecord {
  action: AuditAction;
  targetType: string;
  targetId: string;
  targetLabel?: string | null;
  reason?: string | null;
}

/**
 * Writes one entry for an admin act. Call it with the act's own transaction, so that the act and
 * its entry commit together or not at all (a refused or failed act leaves none).
 */
export async function recordAdminAct(tx: Executor, request: FastifyRequest, record: AuditRecord): Promise<void> {
  const actor = currentUser(request);
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    targetLabel: record.targetLabel ?? null,
    reason: record.reason ?? null,
    address: request.ip,
  });
}

/** Newest first, keyset-paged by id: a page never shifts when new entries arrive. */
export async function listAuditEntries(db: Executor, query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = query.limit ?? AUDIT_PAGE_DEFAULT_LIMIT;
  const where: SQL[] = [];
  if (query.actor) where.push(eq(auditLog.actorId, query.actor));
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.since) where.push(gte(auditLog.createdAt, new Date(query.since)));
  if (query.cursor) where.push(lt(auditLog.id, BigInt(query.cursor)));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    entries: page.map((row) => ({
      _id: String(row.id),
      id: String(row.id),
      actorId: row.actorId,
      actorEmail: row.actorEmail,
      action: row.action as AuditAction,
      targetType: row.targetType,
      targetId: row.targetId,
      targetLabel: row.targetLabel,
      reason: row.reason,
      address: row.address,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
  };
}
