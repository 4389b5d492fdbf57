import type { ComponentProps } from 'react';
import { IMAGE_FILE_ACCEPT } from '../../lib/image-file.ts';
import { FormField } from './form-field.tsx';

type FileFieldProps = ComponentProps<'input'> & {
  label: string;
  error?: string | undefined;
  /** Upload progress in percent while the file is being sent. */
  progress?: number | null;
};

/** An image picker with its validation message and upload progress. */
export function FileField({ label, error, progress = null, className = '', id, ...input }: FileFieldProps) {
  return (
    <FormField label={label} error={error} id={id}>
      {(control) => (
        <>
          <input
            {...control}
            type="file"
            accept={IMAGE_FILE_ACCEPT}
            className={`file-input w-full ${error ? 'file-input-error' : ''} ${className}`}
            {...input}
          />
          {progress !== null && (
            <progress className="progress progress-primary w-full" value={progress} max={100} aria-label={`${label}: uploading`}>
              {progress}%
            </progress>
          )}
        </>
      )}
    </FormField>
  );
}
