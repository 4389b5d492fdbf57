import { labels } from '@furniture/contract';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import type { BookableProduct } from '../api/add-booking.ts';

// The modal and its form library load on the first click, not with the page.
const loadBookingModal = () => import('./booking-modal.tsx');
const BookingModal = lazy(loadBookingModal);

/** Opens the 'Product Booking' modal; visitors are asked to sign in first. */
export function BookNowButton({
  product,
  label = labels.product.bookNow,
  className = 'btn btn-primary',
  onBooked,
}: {
  product: BookableProduct;
  label?: string;
  className?: string;
  onBooked?: () => void | Promise<void>;
}) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  // On a slow network the modal's code takes seconds: the button shows the click was heard.
  const [loading, setLoading] = useState(false);

  function handleClick() {
    if (!user) {
      void navigate(paths.login.getHref(location.pathname + location.search));
      return;
    }
    setLoading(true);
    void loadBookingModal()
      .catch(() => undefined) // the Suspense boundary reports a failed load
      .finally(() => setLoading(false));
    setRequested(true);
    setOpen(true);
  }

  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={`${label}: ${product.productName}`}
        aria-busy={loading}
        disabled={loading}
        onClick={handleClick}
      >
        {loading && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {label}
      </button>
      {requested && (
        <Suspense fallback={null}>
          <BookingModal product={product} open={open} onClose={() => setOpen(false)} {...(onBooked ? { onBooked } : {})} />
        </Suspense>
      )}
    </>
  );
}
