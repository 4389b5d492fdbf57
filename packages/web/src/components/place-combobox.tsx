import { locationTexts, type Place } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { placeLabel, placeSuggestionsQuery } from '../lib/places.ts';
import { useSettled } from '../lib/use-settled.ts';
import { FormField } from './form/form-field.tsx';

/** How long typing pauses before towns are asked for. */
const TYPING_PAUSE_MS = 250;

type PlaceComboboxProps = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'onSelect'> & {
  label: string;
  error?: string | undefined;
  value: string;
  /** Every change of the text; a town typed but not chosen stays free text. */
  onTextChange: (text: string) => void;
  /** A suggestion chosen (click, or arrows and Enter). */
  onPick: (place: Place) => void;
};

/**
 * A text field that suggests towns from GET /api/places as it is typed: the ARIA combobox pattern
 * (the list is its listbox; the arrow keys move the active option, announced through
 * aria-activedescendant; Enter chooses it, Escape closes the list). The location control and the
 * listing form both use it.
 */
export function PlaceCombobox({ label, error, value, onTextChange, onPick, id, className = '', onBlur, ...input }: PlaceComboboxProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const settled = useSettled(value.trim(), TYPING_PAUSE_MS);
  const suggestions = useQuery({ ...placeSuggestionsQuery(settled), enabled: open && settled !== '' });
  const places = suggestions.data ?? [];
  const shown = open && settled !== '' && value.trim() !== '';
  const optionId = (index: number) => `${listId}-option-${index}`;

  function pick(place: Place) {
    onPick(place);
    setOpen(false);
    setActive(-1);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (places.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + places.length + (current === -1 && step < 0 ? 1 : 0)) % places.length);
    } else if (event.key === 'Enter' && shown && active >= 0 && places[active]) {
      event.preventDefault();
      pick(places[active]);
    } else if (event.key === 'Escape' && shown) {
      // Closes the list, not the panel or dialog around the field.
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <FormField label={label} error={error} id={id} className="form-control relative">
      {(control) => (
        <>
          <input
            {...control}
            type="text"
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={shown && places.length > 0}
            aria-controls={listId}
            aria-activedescendant={shown && active >= 0 && places[active] ? optionId(active) : undefined}
            placeholder={locationTexts.placePlaceholder}
            maxLength={100}
            className={`input w-full ${error ? 'input-error' : ''} ${className}`}
            value={value}
            onChange={(event) => {
              onTextChange(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={handleKeyDown}
            onBlur={(event) => {
              setOpen(false);
              onBlur?.(event);
            }}
            {...input}
          />
          <ul
            id={listId}
            role="listbox"
            aria-label={locationTexts.suggestionsList}
            hidden={!shown || places.length === 0}
            className="menu absolute top-full z-30 mt-1 max-h-72 w-full flex-nowrap overflow-y-auto rounded-box bg-base-100 p-1 shadow-lg"
          >
            {places.map((place, index) => (
              <li
                key={place._id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                // Chosen before the field's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(place);
                }}
                className={`cursor-pointer rounded px-3 py-2 ${index === active ? 'bg-primary text-primary-content' : 'hover:bg-base-200'}`}
              >
                {placeLabel(place)}
              </li>
            ))}
          </ul>
          <p className="sr-only" aria-live="polite">
            {shown && (suggestions.isFetching ? locationTexts.suggestionsLoading : places.length ? locationTexts.suggestionsCount(places.length) : suggestions.isSuccess ? locationTexts.noPlaces : '')}
          </p>
        </>
      )}
    </FormField>
  );
}
