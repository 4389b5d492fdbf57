import { capabilityTexts } from '@furniture/contract';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useStartSelling } from '../api/start-selling.ts';

const texts = capabilityTexts.startSelling;

/** Offered to an account that does not sell yet: one press, and it goes on to list its first piece. */
export function StartSelling() {
  const startSelling = useStartSelling();
  const navigate = useNavigate();

  async function handleClick() {
    try {
      const { message } = await startSelling.mutateAsync();
      notify.success(message);
      await navigate(paths.dashboard.addProducts.getHref());
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="start-selling-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-2 p-5">
        <h2 id="start-selling-title" className="card-title text-lg">
          {texts.title}
        </h2>
        <p>{texts.body}</p>
        <div className="card-actions">
          <button type="button" className="btn btn-primary" aria-busy={startSelling.isPending} disabled={startSelling.isPending} onClick={handleClick}>
            {startSelling.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {texts.action}
          </button>
        </div>
      </div>
    </section>
  );
}
