import { zodResolver } from '@hookform/resolvers/zod';
import { accountTexts, forgotPasswordBody, type MessageResponse } from '@furniture/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { FieldError } from '../../../components/form/field-error.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { paths } from '../../../config/paths.ts';
import { api } from '../../../lib/api-client.ts';
import { errorMessage } from '../../../lib/notify.ts';

type ForgotInput = z.input<typeof forgotPasswordBody>;
type Forgot = z.output<typeof forgotPasswordBody>;

/** Asks for a link to choose a new password; the answer is the same whether or not the e-mail has an account. */
export function ForgotPasswordRoute() {
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotInput, unknown, Forgot>({ resolver: zodResolver(forgotPasswordBody), defaultValues: { email: '' } });

  async function onSubmit({ email }: Forgot) {
    setFailure(null);
    try {
      const response = await api<MessageResponse>('/auth/forgot-password', { method: 'POST', json: { email } });
      setSent(response.message);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 py-6" aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="text-center text-4xl font-bold">
        {accountTexts.forgot.title}
      </h1>
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          {sent ? (
            <p role="status" className="alert alert-success">
              {sent}
            </p>
          ) : (
            <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
              <p>{accountTexts.forgot.intro}</p>
              <TextField label={accountTexts.forgot.email} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
              <div aria-live="polite">
                <FieldError message={failure ?? undefined} />
              </div>
              <SubmitButton busy={isSubmitting}>{accountTexts.forgot.send}</SubmitButton>
            </form>
          )}
          <Link to={paths.login.getHref()} className="link link-primary w-fit text-sm">
            {accountTexts.forgot.backToLogin}
          </Link>
        </div>
      </div>
    </section>
  );
}
