import { labels, texts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { BookNowButton } from '../../features/bookings/components/book-now-button.tsx';
import { useDeleteWish } from '../../features/wishes/api/delete-wish.ts';
import { wishesQuery } from '../../features/wishes/api/get-wishes.ts';
import { WishesTable } from '../../features/wishes/components/wishes-table.tsx';
import { useAuth } from '../../lib/auth.tsx';

/** 'Your Wishes List': Order books the product; once booked, the wish goes and My Orders opens. */
export function MyWishesRoute() {
  const { user } = useAuth();
  const { data: wishes, isPending } = useQuery({ ...wishesQuery(user?.email ?? ''), enabled: Boolean(user) });
  const deleteWish = useDeleteWish();
  const navigate = useNavigate();

  return (
    <section aria-labelledby="wishes-title">
      <h1 id="wishes-title" className="mb-6 text-2xl font-bold">
        {texts.wishListTitle}
      </h1>
      <WishesTable
        wishes={wishes}
        isPending={isPending}
        renderOrder={(wish) =>
          wish.inStock === 'available' ? (
            <BookNowButton
              label={labels.table.order}
              className="btn btn-primary btn-sm"
              product={{
                productId: wish.productId,
                productName: wish.productName,
                productPrice: wish.resalePrice,
                productImage: wish.productImage,
                inStock: wish.inStock,
              }}
              onBooked={async () => {
                await deleteWish.mutateAsync(wish._id).catch((error: unknown) => console.error(error));
                await navigate(paths.dashboard.myOrders.getHref());
              }}
            />
          ) : (
            <button type="button" className="btn btn-sm" disabled>
              {texts.unavailable}
            </button>
          )
        }
      />
    </section>
  );
}
