import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  capabilityTexts,
  deleteResponse,
  emailQuery,
  listOf,
  managedUser,
  messages,
  serverMessages,
  successMessage,
  userListQuery,
  type UserRole,
} from '@furniture/contract';
import { recordAdminAct } from '../audit/audit-log.ts';
import { currentUser } from '../http/access.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { findUserByEmail, listUsersByRole, toManagedUser } from '../users/user-repository.ts';
import { deleteUserWithDependents, makeAdmin, removeAdmin, unverifyUser, verifyUser } from './admin-repository.ts';

const noAccount = (email: string) => notFound(serverMessages.admin.noAccount(email));

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const userLists: [url: string, role: UserRole, summary: string][] = [
    ['/allBuyer', 'buyer', 'All buyer accounts with their status (admin)'],
    ['/allSeller', 'seller', 'All seller accounts with their status (admin)'],
    ['/allAdmin', 'admin', 'All admin accounts with their status (admin)'],
  ];
  for (const [url, role, summary] of userLists) {
    app.get(
      url,
      {
        config: { access: ['admin'] },
        schema: {
          tags: ['admin'],
          summary,
          description:
            'Profile fields and whether the account is suspended, oldest account first. Optional `q` keeps the accounts whose name or e-mail contains it, ' +
            `in any case. ${paginationDescription}`,
          querystring: userListQuery,
          response: { 200: listOf(managedUser), ...errorResponses },
        },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        const rows = await listUsersByRole(app.db, role, page.probe, request.query.q || undefined);
        return { success: true as const, data: pageRows(request, reply, rows, page).map(toManagedUser) };
      },
    );
  }

  app.delete(
    '/deleteUser',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'Delete a buyer or seller account and what hangs on it (admin)',
        description:
          'Removes, in one transaction, the account’s wishes and bookings and, for a seller, their products with those products’ wishes and unpaid bookings. ' +
          'Payment records are kept. An admin cannot delete their own account, nor another admin’s.',
        querystring: emailQuery,
        response: { 200: deleteResponse, ...errorResponses },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const { email } = request.query;
      const user = await findUserByEmail(app.db, email);
      if (!user) throw noAccount(email);
      if (user.id === admin.id) throw forbidden(serverMessages.admin.cannotDeleteSelf);
      if (user.role === 'admin') throw forbidden(serverMessages.admin.cannotDeleteAdmin);
      const deletedCount = await app.db.transaction(async (tx) => {
        const count = await deleteUserWithDependents(tx, user);
        if (count > 0) await recordAdminAct(tx, request, { action: 'user.delete', targetType: 'user', targetId: user.id, targetLabel: email });
        return count;
      });
      if (deletedCount === 0) throw noAccount(email);
      return { success: true, deletedCount, message: messages.userDeleted(email) };
    },
  );

  app.patch(
    '/verifyUser',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'Mark an account verified (admin)',
        description: 'A verified seller’s products show sellerVerified at once, and the audit log records it. Verifying twice answers the same (and records once).',
        querystring: emailQuery,
        response: { 200: successMessage, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.query;
      const user = await findUserByEmail(app.db, email);
      if (!user) throw noAccount(email);
      if (!user.verified) {
        await app.db.transaction(async (tx) => {
          await verifyUser(tx, user.id);
          await recordAdminAct(tx, request, { action: 'user.verify', targetType: 'user', targetId: user.id, targetLabel: email });
        });
      }
      return { success: true, message: messages.userVerified(email) };
    },
  );

  app.patch(
    '/unverifyUser',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'Take back an account’s verification (admin)',
        description:
          'The seller’s products no longer show sellerVerified, and the audit log records it. An account that is not verified answers the same (and nothing is recorded).',
        querystring: emailQuery,
        response: { 200: successMessage, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.query;
      const user = await findUserByEmail(app.db, email);
      if (!user) throw noAccount(email);
      if (user.verified) {
        await app.db.transaction(async (tx) => {
          await unverifyUser(tx, user.id);
          await recordAdminAct(tx, request, { action: 'user.unverify', targetType: 'user', targetId: user.id, targetLabel: email });
        });
      }
      return { success: true, message: serverMessages.admin.unverified(email) };
    },
  );

  app.patch(
    '/removeAdmin',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'Take an account’s admin rights away (admin)',
        description:
          'The account keeps buying and selling as before. The last admin keeps the rights: 409 says so. Two admins removing each other at once: ' +
          'one succeeds, the other is refused. An account that is not an admin answers 200 saying so.',
        querystring: emailQuery,
        response: { 200: successMessage, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.query;
      const user = await findUserByEmail(app.db, email);
      if (!user) throw noAccount(email);
      const outcome = await app.db.transaction(async (tx) => {
        const removal = await removeAdmin(tx, currentUser(request).id, user.id);
        if (removal === 'removed') await recordAdminAct(tx, request, { action: 'user.remove-admin', targetType: 'user', targetId: user.id, targetLabel: email });
        return removal;
      });
      if (outcome === 'actor-not-admin') throw forbidden(capabilityTexts.onlyFor(['admin']));
      if (outcome === 'last-admin') throw conflict(serverMessages.admin.lastAdmin(email));
      if (outcome === 'not-admin') return { success: true, message: serverMessages.admin.notAdmin(email) };
      return { success: true, message: serverMessages.admin.adminRemoved(email) };
    },
  );

  app.patch(
    '/makeNewAdmin',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'Make an existing account an admin (admin)',
        description: 'The e-mail must belong to an account already; an unknown e-mail answers 404 saying so.',
        querystring: emailQuery,
        response: { 200: successMessage, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.query;
      const user = await findUserByEmail(app.db, email);
      if (!user) throw notFound(serverMessages.admin.noAccountToPromote(email));
      if (user.role === 'admin') return { success: true, message: serverMessages.admin.alreadyAdmin(email) };
      await app.db.transaction(async (tx) => {
        await makeAdmin(tx, user.id);
        await recordAdminAct(tx, request, { action: 'user.make-admin', targetType: 'user', targetId: user.id, targetLabel: email });
      });
      return { success: true, message: serverMessages.admin.madeAdmin(email) };
    },
  );
};
