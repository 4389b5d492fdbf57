import type { App } from '../src/app.ts';
import type { Executor } from '../src/db/client.ts';
import { createCategory, createProduct, createUser } from '../src/demo/factories.ts';
import { bearer } from './app.ts';

/** Test helpers of conversations, shared by their test files. */

type Headers = Record<string, string>;

/** A seller's product and a buyer, with everyone's authorization headers, not yet talking. */
export async function productAndBuyer(app: App, db: Executor, options: { resalePrice?: string } = {}) {
  const seller = await createUser(db, { role: 'seller', verified: true });
  const buyer = await createUser(db, { role: 'buyer', password: null });
  const category = await createCategory(db);
  const product = await createProduct(db, { categoryId: category.id, sellerId: seller.id }, { resalePrice: options.resalePrice ?? '150.00' });
  return { seller, buyer, product, sellerHeaders: await bearer(app, seller.id), buyerHeaders: await bearer(app, buyer.id) };
}

/** The buyer's thread about the product; answers its id. */
export async function startThread(app: App, headers: Headers, productId: string, text?: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/conversations', headers, payload: { productId, ...(text ? { text } : {}) } });
  if (response.statusCode >= 300) throw new Error(response.body);
  return response.json().data._id as string;
}

export async function send(app: App, headers: Headers, conversationId: string, text: string) {
  return app.inject({ method: 'POST', url: `/api/conversations/${conversationId}/messages`, headers, payload: { text } });
}

/** The buyer's meeting details sent with an offer or an answer: phoneNumber and location. */
type Details = Record<string, unknown>;

export async function makeOffer(app: App, headers: Headers, conversationId: string, amount: number | string, details: Details = {}) {
  return app.inject({ method: 'POST', url: `/api/conversations/${conversationId}/offers`, headers, payload: { amount, ...details } });
}

export async function answer(app: App, headers: Headers, offerId: string, action: 'accept' | 'decline' | 'counter', amount?: number, details?: Details) {
  const payload = { ...(amount ? { amount } : {}), ...details };
  return app.inject({ method: 'POST', url: `/api/offers/${offerId}/${action}`, headers, ...(Object.keys(payload).length ? { payload } : {}) });
}
