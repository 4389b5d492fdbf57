import type { ComponentProps } from 'react';
import { FormField } from './form-field.tsx';

type SelectFieldProps = ComponentProps<'select'> & { label: string; error?: string | undefined };

export function SelectField({ label, error, className = '', id, children, ...select }: SelectFieldProps) {
  return (
    <FormField label={label} error={error} id={id}>
      {(control) => (
        <select {...control} className={`select w-full ${error ? 'select-error' : ''} ${className}`} {...select}>
          {children}
        </select>
      )}
    </FormField>
  );
}
