import { REVIEW_TEXT_MAX_LENGTH, reviewTexts, trustWebTexts, type Review } from '@furniture/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { SelectField } from '../../../components/form/select-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { api } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';

const starChoices = [5, 4, 3, 2, 1];

const ownReviewKey = (bookingId: string) => ['own-review', bookingId];

/**
 * After a closed sale, the buyer rates the seller (POST /reviews), choosing the stars: nothing is
 * assumed. Once written, the same button opens the review to change it (PATCH /reviews/{id}) while
 * it is not final.
 */
export function ReviewButton({ bookingId, productName }: { bookingId: string; productName: string }) {
  const { data: existing, isPending: loading } = useQuery({
    queryKey: ownReviewKey(bookingId),
    queryFn: () => api<{ data: Review | null }>(`/bookings/${bookingId}/review`).then((answer) => answer.data),
  });
  if (loading) return null;
  return <ReviewDialog key={existing?.id ?? 'new'} bookingId={bookingId} productName={productName} existing={existing ?? null} />;
}

function ReviewDialog({ bookingId, productName, existing }: { bookingId: string; productName: string; existing: Review | null }) {
  const queryClient = useQueryClient();
  const [rating, setRating] = useState(existing?.rating ?? 0);
  const [text, setText] = useState(existing?.text ?? '');
  const [ratingError, setRatingError] = useState<string | undefined>();
  const final = existing !== null && new Date(existing.editableUntil) <= new Date();
  const send = useMutation({
    mutationFn: () =>
      existing
        ? api<{ message: string }>(`/reviews/${existing.id}`, { method: 'PATCH', json: { rating, text } })
        : api<{ message: string }>('/reviews', { method: 'POST', json: { bookingId, rating, text } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ownReviewKey(bookingId) }),
  });
  const buttonText = existing ? trustWebTexts.changeReview : trustWebTexts.reviewSeller;

  return (
    <FormDialog
      buttonText={buttonText}
      label={`${buttonText}: ${productName}`}
      buttonClassName="btn btn-sm btn-outline"
      title={existing ? trustWebTexts.changeReviewTitle(productName) : trustWebTexts.reviewTitle(productName)}
      submitText={existing ? trustWebTexts.saveReview : trustWebTexts.sendReview}
      pending={send.isPending || final}
      validate={() => {
        setRatingError(rating ? undefined : trustWebTexts.starsRequired);
        return rating > 0;
      }}
      send={() => send.mutateAsync().then(() => (existing ? reviewTexts.updated : reviewTexts.saved))}
    >
      {existing && (
        <p className="text-sm">{final ? trustWebTexts.reviewIsFinal : trustWebTexts.reviewEditableUntil(formatDateTime(existing.editableUntil))}</p>
      )}
      <SelectField
        label={trustWebTexts.reviewRating}
        value={rating || ''}
        error={ratingError}
        disabled={final}
        onChange={(event) => {
          setRating(Number(event.target.value));
          setRatingError(undefined);
        }}
      >
        <option value="">{trustWebTexts.chooseStars}</option>
        {starChoices.map((stars) => (
          <option key={stars} value={stars}>
            {trustWebTexts.starOption(stars)}
          </option>
        ))}
      </SelectField>
      <TextareaField
        label={trustWebTexts.reviewText}
        value={text}
        maxLength={REVIEW_TEXT_MAX_LENGTH}
        disabled={final}
        onChange={(event) => setText(event.target.value)}
      />
    </FormDialog>
  );
}
