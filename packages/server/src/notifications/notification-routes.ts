import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  markNotificationsReadBody,
  notificationList,
  notificationSettings,
  notificationTexts,
  paginationQuery,
  successMessage,
  unsubscribeQuery,
} from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { badRequest } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { accountOfUnsubscribeToken } from './notification-mail.ts';
import { countUnread, listNotifications, markNotificationsRead, saveSettings, settingsOf } from './notification-repository.ts';

/** The caller's notifications, marking them read, and e-mail preferences (decision 22). */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/notifications',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: 'The caller’s notifications, newest first, with how many are unread',
        description: paginationDescription,
        querystring: paginationQuery,
        response: { 200: notificationList, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const page = pageOf(request.query);
      const rows = await listNotifications(app.db, userId, page.probe.limit, page.probe.offset);
      return { success: true as const, data: pageRows(request, reply, rows, page), unread: await countUnread(app.db, userId) };
    },
  );

  app.post(
    '/notifications/read',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications read: the given ids, or all when no ids are sent',
        description: 'Ids of other people’s notifications are ignored.',
        body: markNotificationsReadBody,
        response: { 200: dataOf(z.object({ unread: z.number() })), ...errorResponses },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await markNotificationsRead(app.db, userId, request.body?.ids);
      return { success: true as const, data: { unread: await countUnread(app.db, userId) } };
    },
  );

  app.get(
    '/me/notification-settings',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: 'The caller’s e-mail preferences',
        response: { 200: dataOf(notificationSettings), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, data: await settingsOf(app.db, currentUser(request).id) }),
  );

  app.put(
    '/me/notification-settings',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: 'Set the caller’s e-mail preferences',
        description: 'email turns every e-mail off or on; digest sends one e-mail a day with the unread notifications instead of one each.',
        body: notificationSettings,
        response: { 200: dataOf(notificationSettings), ...errorResponses },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await saveSettings(app.db, userId, request.body);
      return { success: true as const, data: await settingsOf(app.db, userId) };
    },
  );

  const unsubscribe = async (request: { query: { token: string } }) => {
    const userId = await accountOfUnsubscribeToken(app.db, request.query.token);
    if (!userId) throw badRequest(notificationTexts.unsubscribeInvalid);
    const settings = await settingsOf(app.db, userId);
    await saveSettings(app.db, userId, { ...settings, email: false });
    return { success: true, message: notificationTexts.unsubscribed };
  };
  const unsubscribeSchema = {
    tags: ['notifications'],
    description: 'The token is signed by the server for one account.',
    querystring: unsubscribeQuery,
    response: { 200: successMessage, ...errorResponses },
  };
  app.get(
    '/notification-settings/unsubscribe',
    { config: { access: 'public' }, schema: { ...unsubscribeSchema, summary: 'Turn off every e-mail, from the link in an e-mail, without signing in' } },
    unsubscribe,
  );
  // Mail clients' one-click unsubscribe (RFC 8058) posts a form to the same address; its fields say nothing more.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
  app.post(
    '/notification-settings/unsubscribe',
    { config: { access: 'public' }, schema: { ...unsubscribeSchema, summary: 'One-click unsubscribe from a mail client (List-Unsubscribe-Post)' } },
    unsubscribe,
  );
};
