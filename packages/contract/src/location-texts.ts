import { NEAR_DEFAULT_RADIUS_KM } from './search.ts';

/** The radii the location control offers, in kilometres (the default among them). */
export const radiusChoicesKm = [5, 10, NEAR_DEFAULT_RADIUS_KM, 50, 100, 250] as const;

/** The words of the location control, the place picker and the search page's map (decision 47). */
export const locationTexts = {
  /** The control's button, closed. */
  anywhere: 'Anywhere',
  near: (place: string, radiusKm: number) => `${place} · ${radiusKm} km`,
  mapArea: 'Map area',
  /** A place a shared link names, whose name this device does not know. */
  chosenPlace: 'Chosen place',
  openControl: 'Choose a place',
  panelTitle: 'Search near',
  useMyLocation: 'Use my location',
  locating: 'Finding where you are…',
  myLocation: 'My location',
  denied: 'Your browser did not share your location. Allow it in the browser’s settings, or type a town instead.',
  unavailable: 'Your location could not be found. Type a town instead.',
  placeLabel: 'Town or city',
  placePlaceholder: 'Start typing a town',
  noPlaces: 'No town of that name',
  /** The suggestions' list, named apart from the field it fills so the field's name stays its own. */
  suggestionsList: 'Matching towns',
  suggestionsLoading: 'Looking for towns…',
  suggestionsCount: (count: number) => (count === 1 ? '1 town found; use the arrow keys to choose.' : `${count} towns found; use the arrow keys to choose.`),
  radius: 'Within',
  radiusOption: (km: number) => `${km} km`,
  sortByDistance: 'Nearest first',
  apply: 'Search here',
  clear: 'Anywhere',
  close: 'Close',
  chooseFirst: 'Use your location or choose a town from the list first.',
  /** The search page's switch between the results as a list and on a map. */
  view: 'Show results as',
  list: 'List',
  map: 'Map',
  mapLabel: 'Map of the results',
  mapLoading: 'Loading the map…',
  mapFailed: 'The map could not be loaded.',
  mapHint: 'Move or zoom the map to search that area.',
  cluster: (count: number) => `${count} pieces here; zoom in to see them`,
  outlinesCredit: 'Outlines: Natural Earth',
  /** The product page's map of the piece's area. */
  areaTitle: 'Where it is',
  areaLabel: (place: string) => `Map of the area around ${place}`,
  areaHint: 'The circle shows the area of the town, not the seller’s address.',
} as const;
