import { secondStepTexts, type TotpEnrolment } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { secondStepQuery, useConfirmTotp, useStartTotp, useTurnOffTotp } from '../api/second-step.ts';

const { settings } = secondStepTexts;

/**
 * Two-step sign-in: set up an authenticator app (its key and set-up link to type or open, no QR
 * code), see the recovery codes once, or turn it off with the password or a code (decision 38).
 */
export function TwoStepSignIn() {
  const { data: status } = useQuery(secondStepQuery());
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const turnOff = useTurnOffTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [proof, setProof] = useState('');
  if (!status) return <Spinner />;

  async function begin() {
    try {
      setEnrolment(await start.mutateAsync());
      setCode('');
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  async function turnOn(event: FormEvent) {
    event.preventDefault();
    try {
      const result = await confirm.mutateAsync(code.trim());
      setRecoveryCodes(result.data.recoveryCodes);
      setEnrolment(null);
      notify.success(result.message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  async function stop(event: FormEvent) {
    event.preventDefault();
    const given = proof.trim();
    try {
      notify.success((await turnOff.mutateAsync(/^\d{6}$/.test(given) ? { code: given } : { password: proof })).message);
      setProof('');
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <div className="flex max-w-xl flex-col gap-3">
      {status.adminNeeds === 'set-up' && <p className="alert alert-warning">{settings.adminNeeded}</p>}
      <p>{settings.intro}</p>
      <p className="font-semibold">{status.authenticatorApp ? settings.on : settings.off}</p>
      {recoveryCodes && (
        <div className="flex flex-col gap-2 rounded-box border border-base-300 p-3">
          <h3 className="font-semibold">{settings.recoveryTitle}</h3>
          <p>{settings.recoveryIntro}</p>
          <ul className="grid grid-cols-2 gap-1 font-mono" data-testid="recovery-codes">
            {recoveryCodes.map((recoveryCode) => (
              <li key={recoveryCode}>{recoveryCode}</li>
            ))}
          </ul>
          <button type="button" className="btn btn-sm btn-outline self-start" onClick={() => setRecoveryCodes(null)}>
            {settings.recoveryKept}
          </button>
        </div>
      )}
      {status.authenticatorApp ? (
        <>
          <p>{settings.recoveryCodesLeft(status.recoveryCodesLeft)}</p>
          <form onSubmit={(event) => void stop(event)} noValidate className="flex flex-col gap-3">
            <TextField label={settings.turnOffProof} type="password" autoComplete="current-password" value={proof} onChange={(event) => setProof(event.target.value)} />
            <SubmitButton busy={turnOff.isPending} className="btn-outline self-start">
              {settings.turnOff}
            </SubmitButton>
          </form>
        </>
      ) : enrolment ? (
        <form onSubmit={(event) => void turnOn(event)} noValidate className="flex flex-col gap-3">
          <p>{settings.addToApp}</p>
          <dl className="flex flex-col gap-1">
            <dt className="font-semibold">{settings.key}</dt>
            <dd className="break-all font-mono" data-testid="totp-secret">
              {enrolment.secret}
            </dd>
            <dt className="font-semibold">{settings.setUpLink}</dt>
            <dd className="break-all">
              <a className="link link-primary" href={enrolment.uri}>
                {enrolment.uri}
              </a>
            </dd>
          </dl>
          <TextField label={settings.code} autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(event) => setCode(event.target.value)} />
          <SubmitButton busy={confirm.isPending} className="self-start">
            {settings.turnOn}
          </SubmitButton>
        </form>
      ) : (
        <button type="button" className="btn btn-primary self-start" disabled={start.isPending} onClick={() => void begin()}>
          {settings.start}
        </button>
      )}
    </div>
  );
}
