import type { ComponentProps } from 'react';
import { FormField } from './form-field.tsx';

type TextareaFieldProps = ComponentProps<'textarea'> & { label: string; error?: string | undefined };

export function TextareaField({ label, error, className = '', id, ...textarea }: TextareaFieldProps) {
  return (
    <FormField label={label} error={error} id={id}>
      {(control) => <textarea {...control} className={`textarea w-full ${error ? 'textarea-error' : ''} ${className}`} {...textarea} />}
    </FormField>
  );
}
