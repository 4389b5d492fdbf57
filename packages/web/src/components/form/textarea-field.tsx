import { useId, type ComponentProps } from 'react';
import { FieldError } from './field-error.tsx';

type TextareaFieldProps = ComponentProps<'textarea'> & { label: string; error?: string | undefined };

export function TextareaField({ label, error, className = '', ...textarea }: TextareaFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex w-full flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        className={`textarea w-full ${error ? 'textarea-error' : ''} ${className}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...textarea}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}
