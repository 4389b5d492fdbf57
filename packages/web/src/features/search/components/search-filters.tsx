import { conditions, searchTexts, type Category, type Facets } from '@furniture/contract';
import type { FormEvent } from 'react';
import { selectedConditions } from '../api/search-params.ts';

/** A facet's count as shown: exact, a lower bound ("n+"), or an estimate ("about n", "a few": facets' `estimated`). */
const count = (value: number | undefined, { exact, estimated }: Facets) => {
  const shown = (value ?? 0).toLocaleString('en-US');
  if (estimated && value !== undefined) return value === 0 ? searchTexts.aFew : searchTexts.about(shown);
  return exact || estimated ? shown : searchTexts.atLeast(shown);
};

function NumberInput({ name, label, defaultValue }: { name: string; label: string; defaultValue: string }) {
  return (
    <label className="form-control w-full">
      <span className="label-text text-sm">{label}</span>
      <input
        type="number"
        name={name}
        min={0}
        step="any"
        inputMode="decimal"
        defaultValue={defaultValue}
        className="input input-sm input-bordered w-full"
      />
    </label>
  );
}

/**
 * The filters of the search page, as a form over the URL's parameters: submitting replaces them
 * (keeping the words and the sort). Facet counts say how many results each choice would leave.
 */
export function SearchFilters({
  params,
  categories,
  facets,
  onApply,
}: {
  params: URLSearchParams;
  categories: Category[];
  facets: Facets | null | undefined;
  onApply: (filters: URLSearchParams) => void;
}) {
  const chosen = selectedConditions(params);
  const value = (name: string) => params.get(name) ?? '';

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const filters = new URLSearchParams();
    for (const [name, entry] of form.entries()) {
      const text = String(entry).trim();
      if (text !== '') filters.append(name, text);
    }
    onApply(filters);
  }

  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-5" aria-label={searchTexts.filters}>
      <label className="form-control w-full">
        <span className="label-text font-semibold">{searchTexts.category}</span>
        <select name="categoryId" defaultValue={value('categoryId')} className="select select-sm select-bordered w-full">
          <option value="">{searchTexts.anyCategory}</option>
          {categories.map((category) => (
            <option key={category._id} value={category._id}>
              {category.categoryName}
              {facets ? ` (${count(facets.category[category._id], facets)})` : ''}
            </option>
          ))}
        </select>
      </label>

      <fieldset>
        <legend className="mb-1 font-semibold">{searchTexts.condition}</legend>
        {conditions.map((condition) => (
          <label key={condition} className="flex cursor-pointer items-center gap-2 py-1">
            <input type="checkbox" name="condition" value={condition} defaultChecked={chosen.includes(condition)} className="checkbox checkbox-sm" />
            <span>{condition}</span>
            {facets && <span className="text-base-content/70 text-sm">({count(facets.condition[condition], facets)})</span>}
          </label>
        ))}
      </fieldset>

      <fieldset>
        <legend className="mb-1 font-semibold">{searchTexts.price}</legend>
        <div className="grid grid-cols-2 gap-2">
          <NumberInput name="minPrice" label={searchTexts.minPrice} defaultValue={value('minPrice')} />
          <NumberInput name="maxPrice" label={searchTexts.maxPrice} defaultValue={value('maxPrice')} />
        </div>
      </fieldset>

      <label className="form-control w-full">
        <span className="label-text font-semibold">{searchTexts.location}</span>
        <input
          type="text"
          name="location"
          defaultValue={value('location')}
          placeholder={searchTexts.locationPlaceholder}
          maxLength={100}
          className="input input-sm input-bordered w-full"
        />
      </label>

      <div className="flex flex-col gap-1">
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" name="sellerVerified" value="true" defaultChecked={value('sellerVerified') === 'true'} className="checkbox checkbox-sm" />
          <span>{searchTexts.verifiedOnly}</span>
        </label>
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" name="inStock" value="false" defaultChecked={value('inStock') === 'false'} className="checkbox checkbox-sm" />
          <span>{searchTexts.includeSold}</span>
        </label>
      </div>

      <fieldset className="rounded-box border border-base-300 p-3">
        <legend className="px-1 font-semibold">{searchTexts.willItFit}</legend>
        <p className="mb-2 text-sm">{searchTexts.willItFitHint}</p>
        <p className="text-sm font-semibold">{searchTexts.space}</p>
        <div className="mb-2 grid grid-cols-3 gap-2">
          <NumberInput name="spaceWidth" label={searchTexts.width} defaultValue={value('spaceWidth')} />
          <NumberInput name="spaceDepth" label={searchTexts.depth} defaultValue={value('spaceDepth')} />
          <NumberInput name="spaceHeight" label={searchTexts.height} defaultValue={value('spaceHeight')} />
        </div>
        <p className="text-sm font-semibold">{searchTexts.door}</p>
        <div className="grid grid-cols-2 gap-2">
          <NumberInput name="doorWidth" label={searchTexts.width} defaultValue={value('doorWidth')} />
          <NumberInput name="doorHeight" label={searchTexts.height} defaultValue={value('doorHeight')} />
        </div>
      </fieldset>

      <button type="submit" className="btn btn-primary">
        {searchTexts.applyFilters}
      </button>
    </form>
  );
}
