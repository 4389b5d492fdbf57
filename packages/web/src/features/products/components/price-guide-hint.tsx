import { conditions, priceGuideTexts, yearsFromText, type Condition, type PriceGuideQuery } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { formatPrice } from '../../../lib/format.ts';
import { useSettled } from '../../../lib/use-settled.ts';
import { priceGuideQuery } from '../api/get-price-guide.ts';

/** An asked price this far outside the guide's range is worth a warning. */
const FAR_ABOVE = 1.5;
const FAR_BELOW = 0.5;
/** The guide is asked once typing pauses this long. */
const TYPING_PAUSE_MS = 400;

function guideQueryOf(values: { categoryId: string; condition: string; originalPrice: string; yearsOfUsedProduct: string }): PriceGuideQuery | null {
  const originalPrice = Number(values.originalPrice);
  const yearsUsed = yearsFromText(values.yearsOfUsedProduct);
  if (!values.categoryId || !(conditions as readonly string[]).includes(values.condition)) return null;
  if (!(originalPrice > 0) || yearsUsed === null) return null;
  return { categoryId: values.categoryId, condition: values.condition as Condition, originalPrice, yearsUsed };
}

/** The Add Product form's fair-price guide: a suggested range as the seller types, and a warning for a price far outside it. */
export function PriceGuideHint(props: { categoryId: string; condition: string; originalPrice: string; yearsOfUsedProduct: string; resalePrice: string }) {
  const query = useSettled(JSON.stringify(guideQueryOf(props)), TYPING_PAUSE_MS);
  const { data: guide } = useQuery(priceGuideQuery(JSON.parse(query) as PriceGuideQuery | null));
  const asked = Number(props.resalePrice);
  const warning =
    guide && asked > 0 ? (asked > guide.high * FAR_ABOVE ? priceGuideTexts.tooHigh : asked < guide.low * FAR_BELOW ? priceGuideTexts.tooLow : null) : null;

  return (
    <section aria-labelledby="price-guide-title" aria-live="polite" className="rounded-box border border-base-300 p-4" data-testid="price-guide">
      <h2 id="price-guide-title" className="font-semibold">
        {priceGuideTexts.title}
      </h2>
      {guide ? (
        <>
          <p>{priceGuideTexts.range(formatPrice(guide.low), formatPrice(guide.high))}</p>
          <p className="font-bold">{priceGuideTexts.typical(formatPrice(guide.typical))}</p>
          <p className="text-sm">{guide.basis === 'sales' ? priceGuideTexts.fromSales(guide.salesCount) : priceGuideTexts.estimate}</p>
          {warning && (
            <p className="mt-2 text-sm font-semibold text-amber-800" role="alert">
              {warning}
            </p>
          )}
        </>
      ) : (
        <p className="text-sm">{priceGuideTexts.askFirst}</p>
      )}
    </section>
  );
}
