import { useId, type ReactNode } from 'react';
import { FieldError } from './field-error.tsx';

/** What a field's control spreads on itself to be labelled and to point at its message. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

type FormFieldProps = {
  label: string;
  error?: string | undefined;
  /** The control's id; a generated one otherwise. */
  id?: string | undefined;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
};

/** A labelled control with its validation message, announced to screen readers. */
export function FormField({ label, error, id, className, children }: FormFieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const errorId = `${controlId}-error`;
  return (
    <div className={className ? `${className} flex w-full flex-col gap-1` : 'flex w-full flex-col gap-1'}>
      <label htmlFor={controlId} className="text-sm font-medium">
        {label}
      </label>
      {children({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
