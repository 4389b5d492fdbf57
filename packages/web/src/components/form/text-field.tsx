import { useId, type ComponentProps } from 'react';
import { FieldError } from './field-error.tsx';

type TextFieldProps = ComponentProps<'input'> & { label: string; error?: string | undefined };

/** A labelled input with its validation message, announced to screen readers. */
export function TextField({ label, error, className = '', id, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return (
    <div className="form-control flex w-full flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={inputId}
        className={`input w-full ${input.readOnly ? 'bg-base-200' : ''} ${error ? 'input-error' : ''} ${className}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}
