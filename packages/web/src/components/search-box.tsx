import { searchTexts } from '@furniture/contract';
import type { FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { readChosenLocation, withLocation } from '../lib/places.ts';

/**
 * The navbar's search: a plain form (it works before the app's code for search has loaded, and
 * without JavaScript it submits to /search). Submitting starts a new search with just the words,
 * near the location chosen on this device, if any.
 */
export function SearchBox({ className = '' }: { className?: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const current = location.pathname === paths.search.path ? (new URLSearchParams(location.search).get('q') ?? '') : '';

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    void navigate(paths.search.getHref(withLocation(new URLSearchParams(q ? { q } : {}), readChosenLocation())));
  }

  return (
    <form role="search" action={paths.search.path} onSubmit={handleSubmit} className={`join ${className}`}>
      <input
        key={current}
        type="search"
        name="q"
        defaultValue={current}
        aria-label={searchTexts.searchLabel}
        placeholder={searchTexts.searchPlaceholder}
        maxLength={200}
        className="input input-sm join-item w-full min-w-0"
      />
      <button type="submit" className="btn btn-sm btn-primary join-item" aria-label={searchTexts.searchButton}>
        <svg xmlns="http://www.w3.org/2000/svg" className="h-4 w-4" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
          <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="m21 21-4.35-4.35M10.5 18a7.5 7.5 0 1 1 0-15 7.5 7.5 0 0 1 0 15z" />
        </svg>
      </button>
    </form>
  );
}
