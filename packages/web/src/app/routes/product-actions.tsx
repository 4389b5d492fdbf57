import type { Product } from '@furniture/contract';
import { BookNowButton } from '../../features/bookings/components/book-now-button.tsx';
import { WishButton } from '../../features/wishes/components/wish-button.tsx';

/** The Wish and Book Now buttons of a product card, brought together from their features. */
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
    </>
  );
}

export const renderProductActions = (product: Product) => <ProductActions product={product} />;
