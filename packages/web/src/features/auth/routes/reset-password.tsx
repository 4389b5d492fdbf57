import { zodResolver } from '@hookform/resolvers/zod';
import { accountTexts, passwordSchema } from '@furniture/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { FieldError } from '../../../components/form/field-error.tsx';
import { PasswordField } from '../../../components/form/password-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';

const newPasswordForm = z.object({ password: passwordSchema });
type NewPassword = z.infer<typeof newPasswordForm>;

/** The page of the e-mailed link: a new password, which signs in. */
export function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const { resetPassword } = useAuth();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewPassword>({ resolver: zodResolver(newPasswordForm), defaultValues: { password: '' } });

  async function onSubmit({ password }: NewPassword) {
    setFailure(null);
    try {
      await resetPassword(token!, password);
      notify.success(accountTexts.reset.done);
      void navigate(paths.home.getHref(), { replace: true });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 py-6" aria-labelledby="reset-title">
      <h1 id="reset-title" className="text-center text-4xl font-bold">
        {accountTexts.reset.title}
      </h1>
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          {token ? (
            <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
              <PasswordField label={accountTexts.reset.password} autoComplete="new-password" error={errors.password?.message} {...register('password')} />
              <div aria-live="polite">
                <FieldError message={failure ?? undefined} />
              </div>
              <SubmitButton busy={isSubmitting}>{accountTexts.reset.save}</SubmitButton>
            </form>
          ) : (
            <p role="alert">{accountTexts.reset.noToken}</p>
          )}
          <Link to={paths.forgotPassword.getHref()} className="link link-primary w-fit text-sm">
            {accountTexts.reset.askAgain}
          </Link>
        </div>
      </div>
    </section>
  );
}
