import { accountTexts, type OwnAccount } from '@furniture/contract';
import { useState, type FormEvent } from 'react';
import { FieldError } from '../../../components/form/field-error.tsx';
import { FileField } from '../../../components/form/file-field.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useImageUpload } from '../../../lib/use-image-upload.ts';
import { useChangeProfile } from '../api/account.ts';

const { settings } = accountTexts;

/** Name, photo, phone and town. An empty phone or town clears it. */
export function ProfileForm({ account }: { account: OwnAccount }) {
  const [values, setValues] = useState({ name: account.name, phone: account.phone ?? '', location: account.location ?? '' });
  const [photo, setPhoto] = useState<File | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { uploadImage, progress } = useImageUpload();
  const change = useChangeProfile();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const image = photo ? await uploadImage(photo) : undefined;
    if (image === null) return;
    try {
      await change.mutateAsync({ name: values.name, phone: values.phone.trim() || null, location: values.location.trim() || null, image });
      notify.success(settings.profileSaved);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex max-w-xl flex-col gap-4">
      <TextField label={settings.name} autoComplete="name" value={values.name} onChange={(event) => setValues({ ...values, name: event.target.value })} />
      {account.image && <img src={account.image} alt={account.name} className="h-16 w-16 rounded-full object-cover" />}
      <FileField label={settings.photo} progress={progress} onChange={(event) => setPhoto(event.currentTarget.files?.[0] ?? null)} />
      <TextField
        label={settings.phone}
        type="tel"
        autoComplete="tel"
        aria-describedby="phone-hint"
        value={values.phone}
        onChange={(event) => setValues({ ...values, phone: event.target.value })}
      />
      <p id="phone-hint" className="-mt-3 text-sm">
        {settings.phoneHint}
      </p>
      <TextField
        label={settings.location}
        autoComplete="address-level2"
        value={values.location}
        onChange={(event) => setValues({ ...values, location: event.target.value })}
      />
      <div aria-live="polite">
        <FieldError message={failure ?? undefined} />
      </div>
      <SubmitButton busy={change.isPending || progress !== null} className="self-start">
        {settings.saveProfile}
      </SubmitButton>
    </form>
  );
}
