import { locationTexts, NEAR_DEFAULT_RADIUS_KM, radiusChoicesKm, type Place } from '@furniture/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { locationOfUrl, placeLabel, storeChosenLocation, useChosenLocation, withLocation, type ChosenLocation } from '../lib/places.ts';
import { useDisclosureMenu } from '../lib/use-disclosure-menu.ts';
import { PlaceCombobox } from './place-combobox.tsx';

/** A point chosen in the panel, before its radius and order are. */
type ChosenPoint = Omit<ChosenLocation, 'radiusKm' | 'byDistance'>;

const isGazetteerTown = (place: Place) => /^\d+$/.test(place._id);

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
  const titleId = useId();
  const onSearchPage = location.pathname === paths.search.path;
  const params = onSearchPage ? new URLSearchParams(location.search) : new URLSearchParams();
  const stored = useChosenLocation();
  const inUrl = onSearchPage ? locationOfUrl(params, stored) : stored;
  const current = inUrl === 'other' ? null : inUrl;

  const [point, setPoint] = useState<ChosenPoint | null>(current);
  const [typed, setTyped] = useState(current?.placeId ? current.label : '');
  const [radiusKm, setRadiusKm] = useState(current?.radiusKm ?? NEAR_DEFAULT_RADIUS_KM);
  const [byDistance, setByDistance] = useState(current?.byDistance ?? true);
  const [problem, setProblem] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const firstButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (menu.open) firstButton.current?.focus();
  }, [menu.open]);

  /** Opens the panel on the location the page searches near (the URL may have changed since it was last open). */
  function togglePanel() {
    if (!menu.open) {
      setPoint(current);
      setTyped(current?.placeId ? current.label : '');
      setRadiusKm(current?.radiusKm ?? NEAR_DEFAULT_RADIUS_KM);
      setByDistance(current?.byDistance ?? true);
      setProblem(null);
    }
    menu.setOpen(!menu.open);
  }

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

  function locateMe() {
    setProblem(null);
    if (!('geolocation' in navigator)) {
      setProblem(locationTexts.unavailable);
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        search({ label: locationTexts.myLocation, placeId: null, lat: position.coords.latitude, lon: position.coords.longitude, radiusKm, byDistance });
      },
      (error) => {
        setLocating(false);
        setProblem(error.code === error.PERMISSION_DENIED ? locationTexts.denied : locationTexts.unavailable);
      },
      { maximumAge: 10 * 60 * 1000, timeout: 20_000 },
    );
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!point) {
      setProblem(locationTexts.chooseFirst);
      return;
    }
    search({ ...point, radiusKm, byDistance });
  }

  return (
    <div ref={menu.regionRef} className="relative shrink-0">
      <button
        ref={menu.toggleRef}
        type="button"
        className="btn btn-outline btn-sm max-w-40 sm:max-w-56"
        aria-expanded={menu.open}
        aria-controls={menu.menuId}
        aria-label={`${locationTexts.openControl}: ${buttonLabel}`}
        onClick={togglePanel}
      >
        <PinIcon />
        <span className="truncate">{buttonLabel}</span>
      </button>
      <div
        id={menu.menuId}
        role="dialog"
        aria-labelledby={titleId}
        hidden={!menu.open}
        className="absolute right-0 z-40 mt-2 w-[min(20rem,calc(100vw-1rem))] rounded-box border border-base-300 bg-base-100 p-4 shadow-lg"
      >
        <form onSubmit={handleSubmit} className="flex flex-col gap-3">
          <div className="flex items-center justify-between">
            <h2 id={titleId} className="text-lg font-bold">
              {locationTexts.panelTitle}
            </h2>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => menu.setOpen(false)}>
              {locationTexts.close}
            </button>
          </div>
          <button ref={firstButton} type="button" className="btn btn-primary btn-sm" disabled={locating} onClick={locateMe}>
            {locating && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {locating ? locationTexts.locating : locationTexts.useMyLocation}
          </button>
          <PlaceCombobox
            label={locationTexts.placeLabel}
            value={typed}
            onTextChange={(text) => {
              setTyped(text);
              setPoint(null);
            }}
            onPick={(place) => {
              setTyped(placeLabel(place));
              setProblem(null);
              setPoint({ label: place.name, placeId: isGazetteerTown(place) ? place._id : null, lat: place.lat, lon: place.lon });
            }}
          />
          <div className="flex items-end gap-3">
            <label className="form-control">
              <span className="label-text text-sm">{locationTexts.radius}</span>
              <select className="select select-sm select-bordered" value={radiusKm} onChange={(event) => setRadiusKm(Number(event.target.value))}>
                {radiusChoicesKm.map((km) => (
                  <option key={km} value={km}>
                    {locationTexts.radiusOption(km)}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex cursor-pointer items-center gap-2 pb-1">
              <input type="checkbox" className="checkbox checkbox-sm" checked={byDistance} onChange={(event) => setByDistance(event.target.checked)} />
              <span>{locationTexts.sortByDistance}</span>
            </label>
          </div>
          {problem && (
            <p role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          )}
          <div className="flex justify-between gap-2">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => search(null)}>
              {locationTexts.clear}
            </button>
            <button type="submit" className="btn btn-outline btn-primary btn-sm">
              {locationTexts.apply}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
