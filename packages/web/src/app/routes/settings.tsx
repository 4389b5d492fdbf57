import { accountDataTexts, accountTexts, secondStepTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from '../../components/spinner.tsx';
import { NotificationSettingsForm } from '../../features/notifications/components/notification-settings-form.tsx';
import { ownAccountQuery } from '../../lib/own-account.ts';
import { DataExportButton } from '../../features/settings/components/data-export-button.tsx';
import { DeleteAccount } from '../../features/settings/components/delete-account.tsx';
import { EmailForm } from '../../features/settings/components/email-form.tsx';
import { PasskeysList } from '../../features/settings/components/passkeys-list.tsx';
import { PasswordForm } from '../../features/settings/components/password-form.tsx';
import { ProfileForm } from '../../features/settings/components/profile-form.tsx';
import { SessionsList } from '../../features/settings/components/sessions-list.tsx';
import { TwoStepSignIn } from '../../features/settings/components/two-step-sign-in.tsx';

const { settings } = accountTexts;

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The account's own settings: details, e-mail, password, passkeys, where it is signed in, e-mails, its data and deleting it. */
export function SettingsRoute() {
  const { data: account } = useQuery(ownAccountQuery());
  return (
    <div className="flex flex-col gap-10">
      <h1 className="text-2xl font-bold">{settings.title}</h1>
      {account ? (
        <>
          <Part id="settings-profile" title={settings.profile}>
            <ProfileForm account={account} />
          </Part>
          <Part id="settings-email" title={settings.email}>
            <EmailForm email={account.email} hasPassword={account.hasPassword} />
          </Part>
          <Part id="settings-password" title={settings.password}>
            <PasswordForm hasPassword={account.hasPassword} />
          </Part>
        </>
      ) : (
        <Spinner />
      )}
      <Part id="settings-passkeys" title={settings.passkeys}>
        <PasskeysList />
      </Part>
      <Part id="two-step-sign-in" title={secondStepTexts.settings.title}>
        <TwoStepSignIn />
      </Part>
      <Part id="settings-sessions" title={settings.sessions}>
        <SessionsList />
      </Part>
      <Part id="settings-emails" title={settings.emailPreferences}>
        <NotificationSettingsForm />
      </Part>
      <Part id="settings-data" title={accountDataTexts.settings.exportTitle}>
        <DataExportButton />
      </Part>
      {account && (
        <Part id="settings-delete" title={accountDataTexts.settings.deleteTitle}>
          <DeleteAccount hasPassword={account.hasPassword} />
        </Part>
      )}
    </div>
  );
}
