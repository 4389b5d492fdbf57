import type { ReactNode } from 'react';

type SubmitButtonProps = {
  /** The form is being sent: the button shows a spinner and, unless told otherwise, is disabled. */
  busy: boolean;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
};

export function SubmitButton({ busy, disabled = busy, className, children }: SubmitButtonProps) {
  return (
    <button type="submit" className={className ? `btn btn-primary ${className}` : 'btn btn-primary'} disabled={disabled}>
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {children}
    </button>
  );
}
