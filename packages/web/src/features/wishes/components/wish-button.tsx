import { labels, type Product } from '@furniture/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { addWish, wishPayload } from '../api/add-wish.ts';

/** Adds the product to the buyer's wish list and toasts the server's answer. */
export function WishButton({ product }: { product: Product }) {
  const buyer = useUserRecord();
  const navigate = useNavigate();
  const location = useLocation();
  const [pending, setPending] = useState(false);

  async function handleClick() {
    if (!buyer) {
      await navigate(paths.login.getHref(location.pathname + location.search));
      return;
    }
    setPending(true);
    try {
      const response = await addWish(wishPayload(product, buyer));
      notify.success(response.message);
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <button
      type="button"
      className="btn btn-outline btn-primary"
      aria-label={`${labels.product.wish}: ${product.productName}`}
      disabled={pending}
      onClick={handleClick}
    >
      {labels.product.wish}
    </button>
  );
}
