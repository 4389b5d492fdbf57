import { uiTexts } from '@furniture/contract';
import { useEffect, useState, type ComponentProps } from 'react';
import { IMAGE_FILE_ACCEPT, imageFileProblem } from '../../lib/image-file.ts';
import { FormField } from './form-field.tsx';

type FileFieldProps = ComponentProps<'input'> & {
  label: string;
  error?: string | undefined;
  /** Upload progress in percent while the file is being sent. */
  progress?: number | null;
};

/**
 * An image picker with its validation message and upload progress. A chosen file is checked at
 * once (type and size) and previewed, so a wrong one is noticed before the form is sent.
 */
export function FileField({ label, error, progress = null, className = '', id, onChange, ...input }: FileFieldProps) {
  const [chosen, setChosen] = useState<{ preview: string | null; problem: string | undefined }>({ preview: null, problem: undefined });
  // The preview is an object URL: released when another file is chosen or the form goes away.
  useEffect(() => () => {
    if (chosen.preview) URL.revokeObjectURL(chosen.preview);
  }, [chosen.preview]);

  const message = error ?? chosen.problem;
  return (
    <FormField label={label} error={message} id={id}>
      {(control) => (
        <>
          <input
            {...control}
            type="file"
            accept={IMAGE_FILE_ACCEPT}
            className={`file-input w-full ${message ? 'file-input-error' : ''} ${className}`}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              const problem = file ? imageFileProblem(file) : undefined;
              setChosen({ preview: file && !problem ? URL.createObjectURL(file) : null, problem });
              void onChange?.(event);
            }}
            {...input}
          />
          {chosen.preview && (
            <img src={chosen.preview} alt={uiTexts.imageFile.preview} className="h-32 w-32 rounded-box border border-base-300 object-cover" />
          )}
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
