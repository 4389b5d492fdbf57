import { APPEAL_TEXT_MAX_LENGTH, trustTexts, trustWebTexts } from '@furniture/contract';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { useAppealListing } from '../api/appeal-listing.ts';

/** The seller's one appeal of a listing an admin hid (decision 23), from My Products. */
export function AppealButton({ productId, productName }: { productId: string; productName: string }) {
  const [text, setText] = useState('');
  const appeal = useAppealListing();

  return (
    <FormDialog
      buttonText={trustWebTexts.appeal}
      label={`${trustWebTexts.appeal}: ${productName}`}
      buttonClassName="btn btn-sm btn-outline"
      title={trustWebTexts.appealTitle(productName)}
      submitText={trustWebTexts.sendAppeal}
      pending={appeal.isPending}
      send={() => appeal.mutateAsync({ productId, text }).then(() => trustTexts.appealSent)}
    >
      <p className="text-sm">{trustWebTexts.appealHint}</p>
      <TextareaField
        label={trustWebTexts.appealText}
        value={text}
        required
        maxLength={APPEAL_TEXT_MAX_LENGTH}
        data-autofocus
        onChange={(event) => setText(event.target.value)}
      />
    </FormDialog>
  );
}
