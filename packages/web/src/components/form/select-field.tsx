import { useId, type ComponentProps } from 'react';
import { FieldError } from './field-error.tsx';

type SelectFieldProps = ComponentProps<'select'> & { label: string; error?: string | undefined };

export function SelectField({ label, error, className = '', children, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex w-full flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        className={`select w-full ${error ? 'select-error' : ''} ${className}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        {children}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
