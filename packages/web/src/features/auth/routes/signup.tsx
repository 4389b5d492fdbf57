import { zodResolver } from '@hookform/resolvers/zod';
import { labels, messages, signupBody, texts, uiTexts } from '@furniture/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { FieldError } from '../../../components/form/field-error.tsx';
import { FileField } from '../../../components/form/file-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { PasswordField } from '../../../components/form/password-field.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { notify } from '../../../lib/notify.ts';
import { imageFileList } from '../../../lib/image-file.ts';

/** The signup schema of the contract, with the photo as a picked file instead of a URL. */
const signupForm = signupBody.omit({ image: true }).extend({
  image: imageFileList(messages.photoRequired),
});
type SignupInput = z.input<typeof signupForm>;
type Signup = z.output<typeof signupForm>;

export function SignupRoute() {
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const [signupError, setSignupError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignupInput, unknown, Signup>({ resolver: zodResolver(signupForm) });

  async function onSubmit(values: Signup) {
    setSignupError(null);
    const form = new FormData();
    form.append('name', values.name);
    form.append('email', values.email);
    form.append('password', values.password);
    form.append('userRole', values.userRole);
    const photo = values.image[0];
    if (photo) form.append('image', photo);
    setProgress(0);
    try {
      const { message } = await signUp(form, { onProgress: setProgress });
      if (message) notify.success(message);
      await navigate(paths.home.getHref(), { replace: true });
    } catch (error) {
      setSignupError(error instanceof Error ? error.message : String(error));
    } finally {
      setProgress(null);
    }
  }

  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 py-6" aria-labelledby="signup-title">
      <h1 id="signup-title" className="text-center text-4xl font-bold">
        {texts.signupTitle}
      </h1>
      <div className="card bg-base-100 shadow-xl">
        <form method="post" onSubmit={handleSubmit(onSubmit)} noValidate className="card-body gap-4">
          <TextField label={labels.signup.name} autoComplete="name" error={errors.name?.message} {...register('name')} />
          <TextField label={labels.signup.email} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
          <PasswordField
            label={labels.signup.password}
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <fieldset aria-describedby={errors.userRole ? 'signup-role-error' : undefined}>
            <legend className="mb-1 text-sm font-medium">{uiTexts.auth.role}</legend>
            <div className="flex gap-6">
              <label className="flex cursor-pointer items-center gap-2">
                <input type="radio" className="radio radio-primary" value="buyer" {...register('userRole')} />
                <span>{labels.signup.buyer}</span>
              </label>
              <label className="flex cursor-pointer items-center gap-2">
                <input type="radio" className="radio radio-primary" value="seller" {...register('userRole')} />
                <span>{labels.signup.seller}</span>
              </label>
            </div>
            <FieldError id="signup-role-error" message={errors.userRole?.message} />
          </fieldset>
          <FileField label={labels.signup.photo} error={errors.image?.message} progress={progress} {...register('image')} />
          <p className="text-sm">
            {uiTexts.auth.haveAccount}{' '}
            <Link to={paths.login.getHref()} className="link link-primary">
              {labels.nav.logIn}
            </Link>
          </p>
          <div aria-live="polite">
            <FieldError message={signupError ?? undefined} />
          </div>
          <SubmitButton busy={isSubmitting}>{labels.signup.signUp}</SubmitButton>
        </form>
      </div>
    </section>
  );
}
