import { reportReasons, trustTexts, trustWebTexts, type ReportReason, type ReportTargetType } from '@furniture/contract';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { SelectField } from '../../../components/form/select-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { useFileReport } from '../api/moderation.ts';

interface ReportButtonProps {
  targetType: ReportTargetType;
  targetId: string;
  /** Whose it is (a listing's seller, a message's author): they are not offered the button. */
  ownerId: string;
  /** The dialog's heading. */
  title: string;
  /** The button's accessible name, when its text alone would not say what is reported. */
  label?: string;
  /** Smaller and quieter, for a button repeated beside each message. */
  discreet?: boolean;
}

/** Report a listing or a message to the admins: shown to signed-in people other than its owner. */
export function ReportButton({ targetType, targetId, ownerId, title, label, discreet = false }: ReportButtonProps) {
  const { user } = useAuth();
  // Nothing is assumed: the person says what is wrong.
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [note, setNote] = useState('');
  const fileReport = useFileReport();
  if (!user || user._id === ownerId) return null;

  return (
    <FormDialog
      buttonText={trustWebTexts.report}
      {...(label ? { label } : {})}
      buttonClassName={discreet ? 'btn btn-ghost btn-xs opacity-80' : 'btn btn-ghost'}
      title={title}
      submitText={trustWebTexts.sendReport}
      pending={fileReport.isPending}
      validate={() => {
        setReasonError(reason ? undefined : trustWebTexts.reportReasonRequired);
        return reason !== '';
      }}
      send={() =>
        fileReport.mutateAsync({ targetType, targetId, reason: reason as ReportReason, ...(note.trim() ? { note } : {}) }).then(() => trustTexts.reportReceived)
      }
    >
      <SelectField
        label={trustWebTexts.reportReason}
        value={reason}
        error={reasonError}
        onChange={(event) => {
          setReason(event.target.value as ReportReason);
          setReasonError(undefined);
        }}
      >
        <option value="">{trustWebTexts.chooseReportReason}</option>
        {reportReasons.map((value) => (
          <option key={value} value={value}>
            {trustTexts.reportReasons[value]}
          </option>
        ))}
      </SelectField>
      <TextareaField label={trustWebTexts.reportNote} value={note} maxLength={1000} onChange={(event) => setNote(event.target.value)} />
    </FormDialog>
  );
}
