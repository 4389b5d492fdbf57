import type { ComponentProps } from 'react';
import { FormField } from './form-field.tsx';

type TextFieldProps = ComponentProps<'input'> & { label: string; error?: string | undefined };

/** A labelled input with its validation message, announced to screen readers. */
export function TextField({ label, error, className = '', id, ...input }: TextFieldProps) {
  return (
    <FormField label={label} error={error} id={id} className="form-control">
      {(control) => (
        <input
          {...control}
          className={`input w-full ${input.readOnly ? 'bg-base-200' : ''} ${error ? 'input-error' : ''} ${className}`}
          {...input}
        />
      )}
    </FormField>
  );
}
