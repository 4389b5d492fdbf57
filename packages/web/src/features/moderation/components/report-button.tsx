import { reportReasons, trustTexts, trustWebTexts, type ReportReason } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { SelectField } from '../../../components/form/select-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useFileReport } from '../api/moderation.ts';

/** Report a listing to the admins: shown to signed-in people other than its seller. */
export function ReportButton({ productId, productName, sellerId }: { productId: string; productName: string; sellerId: string }) {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason>(reportReasons[0]);
  const [note, setNote] = useState('');
  const fileReport = useFileReport();
  if (!user || user._id === sellerId) return null;

  async function send(event: FormEvent) {
    event.preventDefault();
    try {
      await fileReport.mutateAsync({ targetType: 'product', targetId: productId, reason, ...(note.trim() ? { note } : {}) });
      notify.success(trustTexts.reportReceived);
      setOpen(false);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => setOpen(true)}>
        {trustWebTexts.report}
      </button>
      <Modal title={trustWebTexts.reportTitle(productName)} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={(event) => void send(event)} className="flex flex-col gap-3">
          <SelectField label={trustWebTexts.reportReason} value={reason} onChange={(event) => setReason(event.target.value as ReportReason)}>
            {reportReasons.map((value) => (
              <option key={value} value={value}>
                {trustTexts.reportReasons[value]}
              </option>
            ))}
          </SelectField>
          <TextareaField label={trustWebTexts.reportNote} value={note} maxLength={1000} onChange={(event) => setNote(event.target.value)} />
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {trustWebTexts.cancel}
            </button>
            <button type="submit" className="btn btn-primary" disabled={fileReport.isPending}>
              {trustWebTexts.sendReport}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}
