import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth.tsx';
import { useToastModule } from '../lib/notify.ts';
import { queryClient } from '../lib/query-client.ts';

/** Toasts of section 9: top-center, 4 s for plain and error, 2 s for success, loading until dismissed. */
const toastOptions = {
  duration: 4000,
  success: { duration: 2000 },
  error: { duration: 4000 },
  loading: { duration: Infinity },
};

function Toasts() {
  const toasts = useToastModule();
  if (!toasts) return null;
  // react-hot-toast keeps at most 20 toasts (its TOAST_LIMIT), the limit of section 9. They sit
  // just below the navbar, so a toast (which pauses while hovered) never covers its links.
  return <toasts.Toaster position="top-center" toastOptions={toastOptions} containerStyle={{ top: 72 }} />;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        {children}
        <Toasts />
      </AuthProvider>
    </QueryClientProvider>
  );
}
