import { serverMessages } from '@furniture/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findUserByEmail, type UserRow } from './user-repository.ts';
import { currentUser } from '../http/access.ts';
import { forbidden, notFound } from '../http/errors.ts';

/**
 * The account a `?email=` listing is about. Ownership comes from the token: the caller may name
 * only their own e-mail, except an admin, who may read anyone's.
 */
export async function requireOwnEmailOrAdmin(
  app: FastifyInstance,
  request: FastifyRequest,
  email: string,
  what: string,
): Promise<UserRow> {
  const caller = currentUser(request);
  if (caller.email === email) return caller;
  if (caller.role !== 'admin') throw forbidden(serverMessages.accounts.onlyOwn(what));
  const owner = await findUserByEmail(app.db, email);
  if (!owner) throw notFound(serverMessages.admin.noAccount(email));
  return owner;
}
