import { secondStepTexts } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { FieldError } from '../../../components/form/field-error.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';

const { login } = secondStepTexts;

/** The second step of a password sign-in: a code from the authenticator app, or a recovery code (decision 38). */
export function SecondStepForm({ challenge, onSuccess }: { challenge: string; onSuccess: () => void }) {
  const { completeSecondStep } = useAuth();
  const [withRecoveryCode, setWithRecoveryCode] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await completeSecondStep(challenge, withRecoveryCode ? { recoveryCode: value } : { code: value.trim() });
      onSuccess();
    } catch (failure) {
      setError(errorMessage(failure));
      notify.error(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4" aria-labelledby="second-step-title">
      <h2 id="second-step-title" className="text-xl font-semibold">
        {login.heading}
      </h2>
      <p>{secondStepTexts.server.needed}</p>
      <TextField
        key={withRecoveryCode ? 'recovery' : 'code'}
        label={withRecoveryCode ? login.recoveryCode : login.code}
        autoComplete="one-time-code"
        inputMode={withRecoveryCode ? 'text' : 'numeric'}
        autoFocus
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <button
        type="button"
        className="link link-primary w-fit text-sm"
        onClick={() => {
          setWithRecoveryCode(!withRecoveryCode);
          setValue('');
        }}
      >
        {withRecoveryCode ? login.useCode : login.useRecoveryCode}
      </button>
      <div aria-live="polite">
        <FieldError message={error ?? undefined} />
      </div>
      <SubmitButton busy={busy}>{login.continue}</SubmitButton>
    </form>
  );
}
