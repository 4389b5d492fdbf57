import { accountTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { passkeyFailure } from '../../../lib/passkeys.ts';
import { passkeysQuery, useAddPasskey, useRemovePasskey } from '../api/account.ts';

const { settings } = accountTexts;

/** The account's passkeys, each with when it was added and last used; add one from this device, or remove one. */
export function PasskeysList() {
  const { data: passkeys } = useQuery(passkeysQuery());
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  if (!passkeys) return <Spinner />;

  async function addPasskey() {
    try {
      notify.success((await add.mutateAsync()).message);
    } catch (error) {
      notify.error(passkeyFailure(error));
    }
  }

  async function removePasskey(id: string) {
    try {
      notify.success((await remove.mutateAsync(id)).message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <div className="flex max-w-xl flex-col gap-3">
      <p>{settings.passkeysIntro}</p>
      {passkeys.length === 0 ? (
        <p>{settings.noPasskeys}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {passkeys.map((passkey) => (
            <li key={passkey._id} className="flex flex-wrap items-center gap-2 rounded-box border border-base-300 p-3">
              <div className="flex-1">
                <p className="font-semibold">{passkey.name}</p>
                <p className="text-sm">
                  {settings.passkeyAdded(formatDateTime(passkey.createdAt))} ·{' '}
                  {passkey.lastUsedAt ? settings.passkeyLastUsed(formatDateTime(passkey.lastUsedAt)) : settings.passkeyNeverUsed}
                </p>
              </div>
              <button type="button" className="btn btn-sm btn-outline" disabled={remove.isPending} onClick={() => void removePasskey(passkey._id)}>
                <span>{settings.removePasskey}</span>
                <span className="sr-only">: {passkey.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-primary self-start" disabled={add.isPending} onClick={() => void addPasskey()}>
        {add.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {settings.addPasskey}
      </button>
    </div>
  );
}
