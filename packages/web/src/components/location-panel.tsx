import { locationTexts, NEAR_DEFAULT_RADIUS_KM, radiusChoicesKm, type Place } from '@furniture/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { placeLabel, type ChosenLocation } from '../lib/places.ts';
import { PlaceCombobox } from './place-combobox.tsx';

/** A point chosen in the panel, before its radius and order are. */
type ChosenPoint = Omit<ChosenLocation, 'radiusKm' | 'byDistance'>;

const isGazetteerTown = (place: Place) => /^\d+$/.test(place._id);

type LocationPanelProps = {
  id: string;
  /** The location the page searches near, which the panel opens on. */
  current: ChosenLocation | null;
  onClose: () => void;
  /** A location chosen, or none (anywhere). */
  onSearch: (chosen: ChosenLocation | null) => void;
};

/**
 * The location control's panel: the browser's location, a town, a radius and the order. Its own
 * module, loaded when the panel first opens, so Home's stylesheet carries none of its rules.
 */
export default function LocationPanel({ id, current, onClose, onSearch }: LocationPanelProps) {
  const titleId = useId();
  const [point, setPoint] = useState<ChosenPoint | null>(current);
  const [typed, setTyped] = useState(current?.placeId ? current.label : '');
  const [radiusKm, setRadiusKm] = useState(current?.radiusKm ?? NEAR_DEFAULT_RADIUS_KM);
  const [byDistance, setByDistance] = useState(current?.byDistance ?? true);
  const [problem, setProblem] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const firstButton = useRef<HTMLButtonElement>(null);

  useEffect(() => firstButton.current?.focus(), []);

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
        onSearch({ label: locationTexts.myLocation, placeId: null, lat: position.coords.latitude, lon: position.coords.longitude, radiusKm, byDistance });
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
    onSearch({ ...point, radiusKm, byDistance });
  }

  return (
    <div
      id={id}
      role="dialog"
      aria-labelledby={titleId}
      className="absolute right-0 z-40 mt-2 w-[min(20rem,calc(100vw-1rem))] rounded-box border border-base-300 bg-base-100 p-4 shadow-lg"
    >
      <form onSubmit={handleSubmit} className="flex flex-col gap-3">
        <div className="flex items-center justify-between">
          <h2 id={titleId} className="text-lg font-bold">
            {locationTexts.panelTitle}
          </h2>
          <button type="button" className="btn btn-ghost btn-xs" onClick={onClose}>
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
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onSearch(null)}>
            {locationTexts.clear}
          </button>
          <button type="submit" className="btn btn-outline btn-primary btn-sm">
            {locationTexts.apply}
          </button>
        </div>
      </form>
    </div>
  );
}
