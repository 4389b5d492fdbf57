import { trustWebTexts } from '@furniture/contract';
import { MessagesRoute } from '../../features/conversations/routes/messages.tsx';
import { ReportButton } from '../../features/moderation/components/report-button.tsx';

/** The Messages screen, where each message from the other person can be reported to the admins. */
export function MessagesPage() {
  return (
    <MessagesRoute
      messageActions={(message, senderName) => (
        <ReportButton
          targetType="message"
          targetId={message._id}
          ownerId={message.senderId}
          title={trustWebTexts.reportMessageTitle(senderName)}
          label={trustWebTexts.reportMessage(senderName)}
          discreet
        />
      )}
    />
  );
}
