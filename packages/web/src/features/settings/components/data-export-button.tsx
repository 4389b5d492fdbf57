import { accountDataTexts, accountExportFileName } from '@furniture/contract';
import { useState } from 'react';
import { apiText } from '../../../lib/api-client.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { saveFile } from '../../../lib/save-file.ts';

const { settings } = accountDataTexts;

/** "Download my data": the account's export, saved as a JSON file. */
export function DataExportButton() {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      saveFile(await apiText('/me/export'), 'application/json', accountExportFileName(new Date()));
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex max-w-xl flex-col gap-3">
      <p>{settings.exportIntro}</p>
      <button type="button" className="btn btn-outline self-start" disabled={busy} onClick={() => void download()}>
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {settings.exportAction}
      </button>
    </div>
  );
}
