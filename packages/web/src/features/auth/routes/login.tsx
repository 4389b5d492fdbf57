import { zodResolver } from '@hookform/resolvers/zod';
import { accountTexts, labels, loginBody, messages, texts, uiTexts } from '@furniture/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FieldError } from '../../../components/form/field-error.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { PasswordField } from '../../../components/form/password-field.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { paths, safeRedirect } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { GoogleSignInButton } from '../components/google-sign-in-button.tsx';
import { PasskeySignInButton } from '../components/passkey-sign-in-button.tsx';
import { SecondStepForm } from '../components/second-step-form.tsx';
import { notify } from '../../../lib/notify.ts';

type LoginInput = z.input<typeof loginBody>;
type Login = z.output<typeof loginBody>;

export function LoginRoute() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirectTo = safeRedirect(searchParams.get('redirectTo'));
  const [signInError, setSignInError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, Login>({ resolver: zodResolver(loginBody), defaultValues: { email: '', password: '' } });

  function succeed() {
    notify.success(messages.signInSuccess);
    void navigate(redirectTo, { replace: true });
  }

  function fail(message: string) {
    setSignInError(message);
    notify.error(message);
  }

  async function onSubmit({ email, password }: Login) {
    setSignInError(null);
    try {
      const result = await signIn(email, password);
      if ('challenge' in result) setChallenge(result.challenge);
      else succeed();
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 py-6" aria-labelledby="login-title">
      <h1 id="login-title" className="text-center text-4xl font-bold">
        {texts.loginTitle}
      </h1>
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          {challenge ? (
            <SecondStepForm challenge={challenge} onSuccess={succeed} />
          ) : (
          <form method="post" onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
            <TextField label={labels.login.email} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
            <PasswordField
              label={labels.login.password}
              autoComplete="current-password"
              error={errors.password?.message}
              {...register('password')}
            />
            <Link to={paths.forgotPassword.getHref()} className="link link-primary w-fit text-sm">
              {accountTexts.forgot.link}
            </Link>
            <p className="text-sm">
              {uiTexts.auth.newHere}{' '}
              <Link to={paths.signup.getHref()} className="link link-primary">
                {uiTexts.auth.createAccount}
              </Link>
            </p>
            <div aria-live="polite">
              <FieldError message={signInError ?? undefined} />
            </div>
            <SubmitButton busy={isSubmitting}>{labels.login.signIn}</SubmitButton>
          </form>
          )}
          <div className="divider">{labels.login.or}</div>
          <div className="flex flex-col gap-3">
            <PasskeySignInButton onSuccess={succeed} onError={fail} />
            <GoogleSignInButton onSuccess={succeed} onSecondStep={setChallenge} onError={fail} />
          </div>
        </div>
      </div>
    </section>
  );
}
