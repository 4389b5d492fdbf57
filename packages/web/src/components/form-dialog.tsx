import { trustWebTexts } from '@furniture/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage, notify } from '../lib/notify.ts';
import { Modal } from './modal.tsx';

interface FormDialogProps {
  /** The button's text, and its accessible name when `label` is not given. */
  buttonText: string;
  label?: string;
  buttonClassName: string;
  title: string;
  submitText: string;
  pending: boolean;
  /** Sends the form; answers the message to show once it is done. A refusal is shown as it comes. */
  send: () => Promise<string>;
  /** Checks the form before it is sent: false keeps it open, its fields saying what is missing. */
  validate?: () => boolean;
  children: ReactNode;
}

/** A button that opens a short form in a dialog: sent, the dialog closes and says so; refused, it stays open and says why. */
export function FormDialog({ buttonText, label, buttonClassName, title, submitText, pending, send, validate, children }: FormDialogProps) {
  const [open, setOpen] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (validate && !validate()) return;
    try {
      notify.success(await send());
      setOpen(false);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <>
      <button type="button" className={buttonClassName} aria-label={label ?? buttonText} onClick={() => setOpen(true)}>
        {buttonText}
      </button>
      <Modal title={title} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
          {children}
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {trustWebTexts.cancel}
            </button>
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {submitText}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}
