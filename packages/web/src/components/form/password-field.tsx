import { uiTexts } from '@furniture/contract';
import { useId, useState, type ComponentProps } from 'react';
import { TextField } from './text-field.tsx';

type PasswordFieldProps = Omit<ComponentProps<'input'>, 'type'> & { label: string; error?: string | undefined };

/** A password input with a "Show password" checkbox, so a password typed on a phone can be checked. */
export function PasswordField(props: PasswordFieldProps) {
  const toggleId = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <TextField {...props} type={shown ? 'text' : 'password'} />
      <label htmlFor={toggleId} className="flex w-fit cursor-pointer items-center gap-2 text-sm">
        <input id={toggleId} type="checkbox" className="checkbox checkbox-sm" checked={shown} onChange={(event) => setShown(event.currentTarget.checked)} />
        {uiTexts.showPassword}
      </label>
    </div>
  );
}
