import { APPEAL_TEXT_MAX_LENGTH, trustTexts, trustWebTexts } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useAppealListing } from '../api/appeal-listing.ts';

/** The seller's one appeal of a listing an admin hid (decision 23), from My Products. */
export function AppealButton({ productId, productName }: { productId: string; productName: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const appeal = useAppealListing();

  async function send(event: FormEvent) {
    event.preventDefault();
    try {
      await appeal.mutateAsync({ productId, text });
      notify.success(trustTexts.appealSent);
      setOpen(false);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <>
      <button type="button" className="btn btn-sm btn-outline" aria-label={`${trustWebTexts.appeal}: ${productName}`} onClick={() => setOpen(true)}>
        {trustWebTexts.appeal}
      </button>
      <Modal title={trustWebTexts.appealTitle(productName)} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={(event) => void send(event)} className="flex flex-col gap-3">
          <p className="text-sm">{trustWebTexts.appealHint}</p>
          <TextareaField
            label={trustWebTexts.appealText}
            value={text}
            required
            maxLength={APPEAL_TEXT_MAX_LENGTH}
            data-autofocus
            onChange={(event) => setText(event.target.value)}
          />
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {trustWebTexts.cancel}
            </button>
            <button type="submit" className="btn btn-primary" disabled={appeal.isPending}>
              {trustWebTexts.sendAppeal}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}
