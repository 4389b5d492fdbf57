import { friendlyMessage } from '@furniture/contract';

/**
 * A validation or server message in red under its field. The contract's schemas name fields as
 * requests do ("phoneNumber is required"); people read the field's label ("Phone number is required").
 */
export function FieldError({ id, message }: { id?: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-red-700" role="alert">
      {friendlyMessage(message)}
    </p>
  );
}
