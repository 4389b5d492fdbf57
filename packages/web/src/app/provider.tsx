import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { ConnectionNotice } from '../components/connection-notice.tsx';
import { AuthProvider, useAuth } from '../lib/auth.tsx';
import { usePlainMessages, useToastModule } from '../lib/notify.ts';
import { queryClient } from '../lib/query-client.ts';
import { bookingKeys, conversationKeys, notificationKeys, productKeys, saleKeys } from '../lib/query-keys.ts';

/** Toasts of section 9: top-center, 4 s for plain and error, 2 s for success, loading until dismissed. */
const toastOptions = {
  duration: 4000,
  success: { duration: 2000 },
  error: { duration: 4000 },
  loading: { duration: Infinity },
};

const phoneQuery = '(max-width: 639px)';

function Toasts() {
  const toasts = useToastModule();
  const isPhone = useSyncExternalStore(
    (listener) => {
      const query = matchMedia(phoneQuery);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => matchMedia(phoneQuery).matches,
    () => false,
  );
  const plain = usePlainMessages();
  if (!toasts) {
    // Offline before any toast was shown, its code cannot arrive: the messages show all the same.
    return (
      <div role="status" className="fixed inset-x-0 z-[70] flex flex-col items-center gap-2 px-3" style={{ top: isPhone ? 8 : 72 }}>
        {plain.map((message) => (
          <p key={message.id} className={`alert max-w-md shadow-lg ${message.kind === 'error' ? 'alert-error' : ''}`}>
            {message.text}
          </p>
        ))}
      </div>
    );
  }
  // react-hot-toast keeps at most 20 toasts (its TOAST_LIMIT), the limit of section 9. On wide
  // screens they sit just below the navbar, so a toast (which pauses while hovered) never covers its
  // links; on phones, where that spot is the page's heading or the field being typed in, they sit
  // over the navbar's top row instead.
  return <toasts.Toaster position="top-center" toastOptions={toastOptions} containerStyle={{ top: isPhone ? 8 : 72 }} />;
}

/**
 * Keeps this tab's live event connection open while someone is signed in. Its module is loaded only
 * then, so that visitors do not download it.
 */
function LiveEventsConnection() {
  const userId = useAuth().user?._id;
  useEffect(() => {
    if (!userId) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('../lib/live-events.ts').then((liveEvents) => {
      if (cancelled) return;
      liveEvents.startLiveEvents();
      // A step of a sale by the other side (a new booking, an answer, a payment) shows at once.
      const unsubscribe = liveEvents.subscribeToLiveEvents('sale.changed', () => {
        for (const queryKey of [bookingKeys.all, saleKeys.sellerBookings, productKeys.all]) void queryClient.invalidateQueries({ queryKey });
      });
      // A message, an offer, a read receipt or a removal by moderation shows at once.
      const conversationEvents = ['message.created', 'offer.changed', 'conversation.read', 'message.removed'].map((type) =>
        liveEvents.subscribeToLiveEvents(type, () => {
          for (const queryKey of [conversationKeys.all, conversationKeys.messages]) void queryClient.invalidateQueries({ queryKey });
        }),
      );
      const notificationEvents = liveEvents.subscribeToLiveEvents('notification.created', () => {
        void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
      });
      // An admin hid, removed or restored one of the seller's listings, or answered its appeal: My Products shows it at once.
      const moderationEvents = liveEvents.subscribeToLiveEvents('listing.moderated', () => {
        void queryClient.invalidateQueries({ queryKey: productKeys.all });
      });
      stop = () => {
        unsubscribe();
        notificationEvents();
        moderationEvents();
        for (const stopListening of conversationEvents) stopListening();
        liveEvents.stopLiveEvents();
      };
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId]);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        {children}
        <Toasts />
        <ConnectionNotice />
        <LiveEventsConnection />
      </AuthProvider>
    </QueryClientProvider>
  );
}
