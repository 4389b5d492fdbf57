import { addBookingBody, conversationMessages, conversationTexts, labels, type ChatMessage, type Conversation, type MeetingDetails, type Offer } from '@furniture/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TextField } from '../../../components/form/text-field.tsx';
import { TimeStamp } from '../../../components/time-stamp.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { ownAccountQuery } from '../../../lib/own-account.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import {
  conversationsQuery,
  markConversationRead,
  messagesQuery,
  olderMessages,
  useAnswerOffer,
  useMakeOffer,
  useSendMessage,
  type OfferAnswer,
} from '../api/conversations.ts';
import { conversationKeys } from '../../../lib/query-keys.ts';

/** A dollar amount typed by a person, or undefined when it is not one. */
const amountOf = (value: string) => (/^\d+(\.\d{1,2})?$/.test(value.trim()) ? Number(value) : undefined);

/** The booking's own rules for a phone number and a meeting place. */
const meetingDetailsForm = addBookingBody.pick({ phoneNumber: true, location: true });

/**
 * The buyer's phone number and meeting place for the booking an agreed price makes, prefilled from
 * Settings. `checked()` answers them, or undefined after showing what is wrong.
 */
function useMeetingDetails() {
  const { data: own } = useQuery(ownAccountQuery());
  const [typed, setTyped] = useState<MeetingDetails>({});
  const [problems, setProblems] = useState<MeetingDetails>({});
  const details = { phoneNumber: typed.phoneNumber ?? own?.phone ?? '', location: typed.location ?? own?.location ?? '' };
  function checked(): MeetingDetails | undefined {
    const result = meetingDetailsForm.safeParse(details);
    const issues = result.success ? [] : result.error.issues;
    const first = (field: keyof MeetingDetails) => issues.find((issue) => issue.path[0] === field)?.message;
    setProblems({ phoneNumber: first('phoneNumber'), location: first('location') });
    return result.success ? result.data : undefined;
  }
  function change(typedNow: MeetingDetails) {
    setTyped((before) => ({ ...before, ...typedNow }));
    // What was wrong with a field is gone once it is typed in again.
    setProblems((before) => ({ ...before, ...Object.fromEntries(Object.keys(typedNow).map((field) => [field, undefined])) }));
  }
  return { details, problems, change, checked };
}
type MeetingDetailsState = ReturnType<typeof useMeetingDetails>;

function MeetingDetailsFields({ meeting }: { meeting: MeetingDetailsState }) {
  return (
    <fieldset className="grid gap-x-3 gap-y-1 rounded-box border border-base-300 p-3 sm:grid-cols-2">
      <legend className="px-1 text-sm font-semibold">{conversationTexts.meetingDetails}</legend>
      <TextField
        label={labels.booking.phoneNumber}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        value={meeting.details.phoneNumber}
        error={meeting.problems.phoneNumber}
        onChange={(event) => meeting.change({ phoneNumber: event.target.value })}
      />
      <TextField
        label={labels.booking.meetingLocation}
        value={meeting.details.location}
        error={meeting.problems.location}
        onChange={(event) => meeting.change({ location: event.target.value })}
      />
    </fieldset>
  );
}

function OfferRow({ offer, thread, myId, meeting }: { offer: Offer; thread: Conversation; myId: string; meeting: MeetingDetailsState }) {
  const answer = useAnswerOffer();
  const [counter, setCounter] = useState('');
  const who = offer.senderId === myId ? conversationTexts.you : offer.senderId === thread.buyerId ? thread.buyerName : thread.sellerName;
  const canAnswer = offer.status === 'open' && offer.senderId !== myId;
  const isBuyer = thread.buyerId === myId;

  async function run(kind: OfferAnswer) {
    const amount = kind === 'counter' ? amountOf(counter) : undefined;
    if (kind === 'counter' && amount === undefined) return;
    // The buyer's details go with an acceptance or a counter-offer, which can make the booking.
    const details = isBuyer && kind !== 'decline' ? meeting.checked() : undefined;
    if (isBuyer && kind !== 'decline' && !details) return;
    try {
      await answer.mutateAsync({ offerId: offer._id, answer: kind, ...(amount ? { amount } : {}), ...(details ? { details } : {}) });
      setCounter('');
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <li className="rounded-box bg-base-200 p-3">
      <p>
        {conversationTexts.offerBy(who, formatPrice(offer.amount))}: <span className="font-semibold">{conversationTexts.offerStatus[offer.status]}</span>
      </p>
      {canAnswer && isBuyer && (
        <div className="mt-2">
          <MeetingDetailsFields meeting={meeting} />
        </div>
      )}
      {canAnswer && (
        <div className="mt-2 flex flex-wrap items-end gap-2">
          <button type="button" className="btn btn-sm btn-primary" disabled={answer.isPending} onClick={() => void run('accept')}>
            {conversationTexts.accept}
          </button>
          <button type="button" className="btn btn-sm btn-outline" disabled={answer.isPending} onClick={() => void run('decline')}>
            {conversationTexts.decline}
          </button>
          <label className="form-control">
            <span className="label-text text-sm">{conversationTexts.counterLabel}</span>
            <input className="input input-sm input-bordered w-32" inputMode="decimal" value={counter} onChange={(event) => setCounter(event.target.value)} />
          </label>
          <button type="button" className="btn btn-sm" disabled={answer.isPending || amountOf(counter) === undefined} onClick={() => void run('counter')}>
            {conversationTexts.counter}
          </button>
        </div>
      )}
    </li>
  );
}

/** What can be done with a message from the other participant (report it), composed by the app. */
type MessageActions = (message: ChatMessage, senderName: string) => ReactNode;

function Thread({ thread, myId, messageActions }: { thread: Conversation; myId: string; messageActions?: MessageActions }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(messagesQuery(thread._id));
  const [older, setOlder] = useState<{ messages: NonNullable<typeof data>['messages']; nextBefore: string | null }>();
  const send = useSendMessage();
  const offer = useMakeOffer();
  const meeting = useMeetingDetails();
  const [text, setText] = useState('');
  const [amount, setAmount] = useState('');
  const isBuyer = thread.buyerId === myId;
  const otherName = isBuyer ? thread.sellerName : thread.buyerName;
  const newestMessageId = data?.messages.at(-1)?._id;

  // Reading the thread marks it read, again whenever a new message arrives while it is open.
  useEffect(() => {
    if (thread.unread === 0) return;
    void markConversationRead(thread._id).then(() => queryClient.invalidateQueries({ queryKey: conversationKeys.all }));
  }, [thread._id, thread.unread, newestMessageId, queryClient]);

  async function submitMessage(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    try {
      await send.mutateAsync({ conversationId: thread._id, text });
      setText('');
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  async function submitOffer(event: FormEvent) {
    event.preventDefault();
    const value = amountOf(amount);
    const details = meeting.checked();
    if (value === undefined || !details) return;
    try {
      await offer.mutateAsync({ conversationId: thread._id, amount: value, details });
      setAmount('');
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  const messages = [...(older?.messages ?? []), ...(data?.messages ?? [])];
  const nextBefore = older ? older.nextBefore : data?.nextBefore;
  const lastMine = [...messages].reverse().find((message) => message.senderId === myId);
  const seen = lastMine && thread.otherReadAt && thread.otherReadAt >= lastMine.createdAt;
  const accepted = thread.offers.find((candidate) => candidate.status === 'accepted');

  return (
    <section aria-labelledby="thread-title" className="flex flex-col gap-4">
      <header>
        <h2 id="thread-title" className="text-xl font-bold">
          <Link className="link" to={paths.product.getHref(thread.productId)}>
            {thread.productName}
          </Link>
        </h2>
        <p className="text-sm opacity-80">
          {isBuyer ? conversationTexts.withSeller(thread.sellerName) : conversationTexts.withBuyer(thread.buyerName)} ·{' '}
          {conversationTexts.askingPrice(formatPrice(thread.askingPrice))}
        </p>
      </header>

      {nextBefore && (
        <button
          type="button"
          className="btn btn-sm btn-ghost self-start"
          onClick={() => void olderMessages(thread._id, nextBefore).then((page) => setOlder({ messages: [...page.messages, ...(older?.messages ?? [])], nextBefore: page.nextBefore }))}
        >
          {conversationTexts.olderMessages}
        </button>
      )}
      {isPending ? (
        <Spinner />
      ) : (
        <ol aria-live="polite" className="flex flex-col gap-2">
          {messages.map((message) => {
            const mine = message.senderId === myId;
            return (
              <li key={message._id} className={`chat ${mine ? 'chat-end' : 'chat-start'}`}>
                <div className="chat-header">
                  <TimeStamp iso={message.createdAt} />
                </div>
                {/* Plain text, rendered as text: markup shows as typed and addresses are not links. */}
                <div
                  className={`chat-bubble whitespace-pre-wrap break-words ${mine ? 'chat-bubble-primary' : ''} ${message.removed ? 'italic' : ''}`}
                >
                  {message.text}
                </div>
                {!mine && !message.removed && messageActions && <div className="chat-footer">{messageActions(message, otherName)}</div>}
              </li>
            );
          })}
        </ol>
      )}
      {seen && <p className="text-right text-xs opacity-80">{conversationTexts.seen}</p>}

      {thread.offers.length > 0 && (
        <ul className="flex flex-col gap-2">
          {thread.offers.map((item) => (
            <OfferRow key={item._id} offer={item} thread={thread} myId={myId} meeting={meeting} />
          ))}
        </ul>
      )}
      {isBuyer && thread.payableBookingId && (
        <Link className="btn btn-primary self-start" to={paths.dashboard.payment.getHref(thread.payableBookingId)}>
          {conversationTexts.payAgreedPrice}
        </Link>
      )}

      <form onSubmit={(event) => void submitMessage(event)} className="flex flex-col gap-2">
        <label className="form-control">
          <span className="label-text">{conversationTexts.messageLabel}</span>
          <textarea
            className="textarea textarea-bordered w-full"
            rows={3}
            maxLength={2000}
            value={text}
            aria-describedby="enter-sends"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              // Enter sends, as in other chats; Shift+Enter (or Enter while an input method composes) adds a line.
              if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }}
          />
        </label>
        <p id="enter-sends" className="text-xs">
          {conversationTexts.enterSends}
        </p>
        <button type="submit" className="btn btn-primary self-end" disabled={send.isPending || !text.trim()}>
          {conversationTexts.send}
        </button>
      </form>

      {isBuyer && !thread.takesOffers && !accepted && !thread.payableBookingId && <p>{conversationMessages.offerNotAvailable}</p>}
      {isBuyer && thread.takesOffers && !thread.offers.some((item) => item.status === 'open') && (
        <form onSubmit={(event) => void submitOffer(event)} noValidate className="flex flex-col gap-2">
          <MeetingDetailsFields meeting={meeting} />
          <div className="flex flex-wrap items-end gap-2">
            <label className="form-control">
              <span className="label-text">{conversationTexts.offerLabel}</span>
              <input className="input input-bordered w-40" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
            </label>
            <button type="submit" className="btn" disabled={offer.isPending || amountOf(amount) === undefined}>
              {conversationTexts.makeOffer}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** Messages: the person's threads with unread counts, and the chosen thread, updated live. */
export function MessagesRoute({ messageActions }: { messageActions?: MessageActions }) {
  const myId = useAuth().user?._id ?? '';
  const { data: threads, isPending } = useQuery(conversationsQuery());
  const [search] = useSearchParams();
  const chosen = threads?.find((thread) => thread._id === search.get('thread'));

  return (
    <section aria-labelledby="messages-title">
      <h1 id="messages-title" className="mb-6 text-2xl font-bold">
        {conversationTexts.messagesTitle}
      </h1>
      {isPending ? (
        <Spinner />
      ) : !threads?.length ? (
        <p>{conversationTexts.noConversations}</p>
      ) : (
        <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
          <nav aria-label={conversationTexts.messagesTitle}>
            <ul className="menu rounded-box bg-base-200 w-full">
              {threads.map((thread) => (
                <li key={thread._id}>
                  <Link to={paths.dashboard.messages.getHref(thread._id)} className={thread._id === chosen?._id ? 'menu-active' : ''}>
                    <span className="truncate">{thread.productName}</span>
                    {thread.unread > 0 && (
                      <span className="badge badge-sm badge-secondary" aria-label={conversationTexts.unread(thread.unread)}>
                        {thread.unread}
                      </span>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {chosen ? <Thread key={chosen._id} thread={chosen} myId={myId} messageActions={messageActions} /> : <p>{conversationTexts.chooseConversation}</p>}
        </div>
      )}
    </section>
  );
}
