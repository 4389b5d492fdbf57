import type { MessageResponse, Product, PublicUser } from '@furniture/contract';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { productMarkKeys, wishKeys } from '../../../lib/query-keys.ts';

/** The wish payload of section 3, built from the product and the buyer's database record. */
export function wishPayload(product: Product, buyer: PublicUser) {
  return {
    productId: product._id,
    name: buyer.name,
    email: buyer.email,
    resalePrice: product.resalePrice,
    productName: product.productName,
    productImage: product.productImage,
    inStock: product.inStock,
  };
}

/**
 * POST /addWish. A plain call rather than a mutation hook: the Wish button is on Home, whose
 * first load stays small without the mutation machinery.
 */
export async function addWish(payload: ReturnType<typeof wishPayload>) {
  const response = await api<MessageResponse>('/addWish', { method: 'POST', json: payload });
  await Promise.all([queryClient.invalidateQueries({ queryKey: wishKeys.all }), queryClient.invalidateQueries({ queryKey: productMarkKeys.all })]);
  return response;
}
