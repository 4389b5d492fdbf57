import type { Product } from '@furniture/contract';
import { BookNowButton } from '../../features/bookings/components/book-now-button.tsx';
import { MessageSellerButton } from '../../features/conversations/components/message-seller-button.tsx';
import { WishButton } from '../../features/wishes/components/wish-button.tsx';

/** The Wish, Book Now and Message seller buttons of a product card, brought together from their features. */
export function ProductActions({ product }: { product: Product }) {
  return (
    <>
      <WishButton product={product} />
      <BookNowButton
        product={{
          productId: product._id,
          productName: product.productName,
          productPrice: product.resalePrice,
          productImage: product.productImage,
          inStock: product.inStock,
        }}
      />
      <MessageSellerButton productId={product._id} productName={product.productName} />
    </>
  );
}

export const renderProductActions = (product: Product) => <ProductActions product={product} />;
