import { zodResolver } from '@hookform/resolvers/zod';
import { problemReasons, protectionTexts, reportProblemBody, type ReportProblemBody } from '@furniture/contract';
import { useForm } from 'react-hook-form';
import { SelectField } from '../../../components/form/select-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { Modal } from '../../../components/modal.tsx';

/** The buyer's "Something is wrong": what is wrong, and a note for the admin who looks at it. */
export function ProblemDialog({
  productName,
  open,
  onClose,
  onReport,
}: {
  productName: string;
  open: boolean;
  onClose: () => void;
  onReport: (report: ReportProblemBody) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ReportProblemBody>({ resolver: zodResolver(reportProblemBody), defaultValues: { note: '' } });

  return (
    <Modal title={protectionTexts.reportTitle(productName)} open={open} onClose={onClose}>
      <form noValidate onSubmit={handleSubmit(onReport)} className="flex flex-col gap-4">
        <p>{protectionTexts.reportBody}</p>
        <SelectField label={protectionTexts.reason} error={errors.reason?.message} defaultValue="" {...register('reason')}>
          <option value="" disabled>
            {protectionTexts.chooseReason}
          </option>
          {problemReasons.map((reason) => (
            <option key={reason} value={reason}>
              {protectionTexts.reasons[reason]}
            </option>
          ))}
        </SelectField>
        <TextareaField label={protectionTexts.note} rows={3} error={errors.note?.message} {...register('note')} />
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            {protectionTexts.cancel}
          </button>
          <SubmitButton busy={isSubmitting}>{protectionTexts.send}</SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
