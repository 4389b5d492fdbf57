/** A validation or server message in red under its field. */
export function FieldError({ id, message }: { id?: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-red-700" role="alert">
      {message}
    </p>
  );
}
