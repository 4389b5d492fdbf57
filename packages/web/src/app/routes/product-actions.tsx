import { uiTexts, type Product } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { BookNowButton } from '../../features/bookings/components/book-now-button.tsx';
import { MessageSellerButton } from '../../features/conversations/components/message-seller-button.tsx';
import { WishButton } from '../../features/wishes/components/wish-button.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { can } from '../../lib/can.ts';
import { productMarksQuery } from '../../lib/product-marks.ts';

/** A done action's state in place of its button: what the buyer already did needs no second click. */
function ProductMark({ text, hint }: { text: string; hint: string }) {
  return (
    <span className="badge badge-lg badge-success h-10 gap-1 px-4" title={hint}>
      <svg xmlns="http://www.w3.org/2000/svg" className="h-4 w-4" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
        <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2.5" d="M5 13l4 4L19 7" />
      </svg>
      <span>{text}</span>
      <span className="sr-only">: {hint}</span>
    </span>
  );
}

/**
 * The Wish, Book Now and Message seller buttons of a product card, brought together from their
 * features. A buyer's wished or booked piece shows Wished or Booked instead; a booked one needs no wish.
 * Only what the viewer can do shows: nothing on their own listing, nor for an account that does not
 * buy; visitors see them all and are asked to sign in.
 */
export function ProductActions({ product }: { product: Product }) {
  const { user } = useAuth();
  const buys = can(user, 'buy');
  const { data: marks } = useQuery({ ...productMarksQuery(), enabled: buys });
  if (user && (!buys || marks?.own.has(product._id))) return null;
  const messageSeller = <MessageSellerButton productId={product._id} productName={product.productName} />;
  if (marks?.booked.has(product._id)) {
    return (
      <>
        <ProductMark text={uiTexts.productMarks.booked} hint={uiTexts.productMarks.bookedHint(product.productName)} />
        {messageSeller}
      </>
    );
  }
  return (
    <>
      {marks?.wished.has(product._id) ? (
        <ProductMark text={uiTexts.productMarks.wished} hint={uiTexts.productMarks.wishedHint(product.productName)} />
      ) : (
        <WishButton product={product} />
      )}
      <BookNowButton
        product={{
          productId: product._id,
          productName: product.productName,
          productPrice: product.resalePrice,
          productImage: product.productImage,
          inStock: product.inStock,
        }}
      />
      {messageSeller}
    </>
  );
}

export const renderProductActions = (product: Product) => <ProductActions product={product} />;
