import { formatCents, platformFeeCents, sellerShareTexts } from '@furniture/contract';
import { useAppConfig } from '../../../lib/app-config.ts';

/** "You receive $X" under the price as the seller types it: the price less the marketplace's fee. */
export function YouReceive({ id, price }: { id: string; price: string }) {
  const { data: config } = useAppConfig();
  const priceCents = Math.round(Number(price) * 100);
  const shown = config && price.trim() !== '' && Number.isFinite(priceCents) && priceCents > 0;
  const feeCents = shown ? platformFeeCents(priceCents, config.platformFee) : 0;
  return (
    <p id={id} aria-live="polite" className="mt-1 text-sm" data-testid="you-receive">
      {shown && (
        <>
          <span className="font-semibold">{sellerShareTexts.youReceive(formatCents(priceCents - feeCents))}</span>{' '}
          <span>({sellerShareTexts.fee(formatCents(feeCents))})</span>
        </>
      )}
    </p>
  );
}
