import { useId, type ComponentProps } from 'react';
import { IMAGE_FILE_ACCEPT } from '../../lib/image-file.ts';
import { FieldError } from './field-error.tsx';

type FileFieldProps = ComponentProps<'input'> & {
  label: string;
  error?: string | undefined;
  /** Upload progress in percent while the file is being sent. */
  progress?: number | null;
};

/** An image picker with its validation message and upload progress. */
export function FileField({ label, error, progress = null, className = '', ...input }: FileFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex w-full flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={IMAGE_FILE_ACCEPT}
        className={`file-input w-full ${error ? 'file-input-error' : ''} ${className}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {progress !== null && (
        <progress className="progress progress-primary w-full" value={progress} max={100} aria-label={`${label}: uploading`}>
          {progress}%
        </progress>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
