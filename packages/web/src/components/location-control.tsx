import { locationTexts, NEAR_DEFAULT_RADIUS_KM } from '@furniture/contract';
import { lazy, Suspense } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { locationOfUrl, storeChosenLocation, useChosenLocation, withLocation, type ChosenLocation } from '../lib/places.ts';
import { useDisclosureMenu } from '../lib/use-disclosure-menu.ts';

const LocationPanel = lazy(() => import('./location-panel.tsx'));

/** How a place the URL names but this device did not choose reads: its name when the URL gives one (nearPlace=Dhaka). */
const placeNamed = (nearPlace: string | null) => (nearPlace && !/^\d+$/.test(nearPlace) ? nearPlace : locationTexts.chosenPlace);

function PinIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" className="h-4 w-4 shrink-0" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="M12 21s-7-6.1-7-11.5a7 7 0 1 1 14 0C19 14.9 12 21 12 21z" />
      <circle cx="12" cy="9.5" r="2.5" strokeWidth="2" />
    </svg>
  );
}

/**
 * Where to search from: the browser's location (asked for only when the button is pressed) or a
 * town picked from suggestions, a radius and whether nearest comes first. A button opening a small
 * panel, so it fits a phone's bar. The choice goes into the search page's URL (near or nearPlace,
 * radiusKm, sort) and is kept on this device (decision 47).
 */
export function LocationControl() {
  const location = useLocation();
  const navigate = useNavigate();
  const menu = useDisclosureMenu<HTMLButtonElement, HTMLDivElement>();
  const onSearchPage = location.pathname === paths.search.path;
  const params = onSearchPage ? new URLSearchParams(location.search) : new URLSearchParams();
  const stored = useChosenLocation();
  const inUrl = onSearchPage ? locationOfUrl(params, stored) : stored;
  const current = inUrl === 'other' ? null : inUrl;

  const buttonLabel =
    inUrl === 'other'
      ? locationTexts.near(placeNamed(params.get('nearPlace')), Number(params.get('radiusKm')) || NEAR_DEFAULT_RADIUS_KM)
      : current
        ? locationTexts.near(current.label, current.radiusKm)
        : onSearchPage && params.has('bbox')
          ? locationTexts.mapArea
          : locationTexts.anywhere;

  function search(chosen: ChosenLocation | null) {
    storeChosenLocation(chosen);
    menu.setOpen(false);
    void navigate(paths.search.getHref(withLocation(params, chosen)));
  }

  return (
    <div ref={menu.regionRef} className="relative shrink-0">
      <button
        ref={menu.toggleRef}
        type="button"
        className="btn btn-outline btn-sm max-w-40 sm:max-w-56"
        aria-expanded={menu.open}
        aria-controls={menu.open ? menu.menuId : undefined}
        aria-label={`${locationTexts.openControl}: ${buttonLabel}`}
        onClick={() => menu.setOpen(!menu.open)}
      >
        <PinIcon />
        <span className="truncate">{buttonLabel}</span>
      </button>
      {menu.open && (
        <Suspense fallback={null}>
          {/* Mounted on each opening, so it opens on the location the page searches near now. */}
          <LocationPanel id={menu.menuId} current={current} onClose={() => menu.setOpen(false)} onSearch={search} />
        </Suspense>
      )}
    </div>
  );
}
