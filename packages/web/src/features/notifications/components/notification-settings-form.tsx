import { notificationScreenTexts, type NotificationSettings } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { notificationSettingsQuery, useSaveNotificationSettings } from '../api/notifications.ts';

function SettingsForm({ initial }: { initial: NotificationSettings }) {
  const [settings, setSettings] = useState(initial);
  const save = useSaveNotificationSettings();

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync(settings);
      notify.success(notificationScreenTexts.saved);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="flex max-w-xl flex-col gap-4">
      <label className="label cursor-pointer justify-start gap-3 whitespace-normal text-base-content">
        <input type="checkbox" className="checkbox" checked={settings.email} onChange={(event) => setSettings({ ...settings, email: event.target.checked })} />
        <span>{notificationScreenTexts.emailLabel}</span>
      </label>
      <label className="label cursor-pointer justify-start gap-3 whitespace-normal text-base-content">
        <input
          type="checkbox"
          className="checkbox"
          checked={settings.digest}
          disabled={!settings.email}
          onChange={(event) => setSettings({ ...settings, digest: event.target.checked })}
        />
        <span>{notificationScreenTexts.digestLabel}</span>
      </label>
      <button type="submit" className="btn btn-primary self-start" disabled={save.isPending}>
        {notificationScreenTexts.save}
      </button>
    </form>
  );
}

/** Which notifications reach the person by e-mail: the form, once the settings have loaded. */
export function NotificationSettingsForm() {
  const { data } = useQuery(notificationSettingsQuery());
  return data ? <SettingsForm initial={data} /> : <Spinner />;
}
