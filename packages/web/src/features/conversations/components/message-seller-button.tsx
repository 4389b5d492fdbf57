import { conversationTexts } from '@furniture/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { can } from '../../../lib/can.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { startConversation } from '../api/conversations.ts';

/** Opens (or reopens) the buyer's thread with the product's seller; shown to visitors and to accounts that buy. */
export function MessageSellerButton({ productId, productName }: { productId: string; productName: string }) {
  const user = useUserRecord();
  const navigate = useNavigate();
  const location = useLocation();
  const [pending, setPending] = useState(false);
  if (user && !can(user, 'buy')) return null;

  async function handleClick() {
    if (!user) {
      await navigate(paths.login.getHref(location.pathname + location.search));
      return;
    }
    setPending(true);
    try {
      await navigate(paths.dashboard.messages.getHref(await startConversation(productId)));
    } catch (error) {
      notify.error(errorMessage(error));
      setPending(false);
    }
  }

  return (
    <button type="button" className="btn btn-outline" aria-label={`${conversationTexts.messageSeller}: ${productName}`} disabled={pending} onClick={handleClick}>
      {conversationTexts.messageSeller}
    </button>
  );
}
