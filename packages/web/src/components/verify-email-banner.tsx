import { accountTexts, MAX_PAGE_WIDTH_PX, type MessageResponse } from '@furniture/contract';
import { useState } from 'react';
import { api } from '../lib/api-client.ts';
import { useAuth } from '../lib/auth.tsx';
import { errorMessage, notify } from '../lib/notify.ts';

/** Asks a signed-in person whose e-mail is not verified to open the link, and offers to send it again. */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const [sending, setSending] = useState(false);
  if (!user || user.emailVerified) return null;

  async function sendAgain() {
    setSending(true);
    try {
      const response = await api<MessageResponse>('/auth/verify-email/send', { method: 'POST' });
      notify.success(response.message);
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <div role="region" aria-label={accountTexts.verify.bannerLabel} className="bg-warning/20">
      <div className="mx-auto flex w-full flex-wrap items-center gap-2 px-2 py-2 text-sm sm:px-4" style={{ maxWidth: MAX_PAGE_WIDTH_PX }}>
        <p className="flex-1">{accountTexts.verify.banner}</p>
        <button type="button" className="btn btn-sm btn-outline" onClick={sendAgain} disabled={sending}>
          {accountTexts.verify.resend}
        </button>
      </div>
    </div>
  );
}
