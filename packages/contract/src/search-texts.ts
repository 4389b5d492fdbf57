/*
 * Apart from the schemas of search.ts, so that pages which only show these words do not download zod
 * (docs/decisions/0026).
 */
import { counted } from './counted.ts';
import type { SearchSort } from './search.ts';
import type { Measurements } from './schemas.ts';

/**
 * An estimated count as it is shown: two significant digits (3,341 is "about 3,300"); a sum of
 * estimates is rounded again.
 */
export const roundedEstimate = (count: number): number => Number(count.toPrecision(2));

export const searchTexts = {
  searchLabel: 'Search furniture',
  searchPlaceholder: 'Search sofas, oak tables…',
  searchButton: 'Search',
  /** The results' spinner, for screen readers. */
  searching: 'Searching',
  resultsTitle: 'Search results',
  resultsFor: (q: string) => `Results for “${q}”`,
  allFurniture: 'All furniture',
  /** The title of a search by place alone. */
  furnitureIn: (place: string) => `Furniture in ${place}`,
  resultCount: (shown: number, more: boolean) => `${shown}${more ? '+' : ''} ${shown === 1 && !more ? 'piece' : 'pieces'}`,
  /** The number of results of a broad search, estimated (facets' `estimated`). */
  resultEstimate: (shown: string) => `about ${shown} pieces`,
  noResults: 'Nothing matches this search.',
  noResultsHint: 'Try fewer words or clear some filters.',
  clearFilters: 'Clear filters',
  loadMore: 'Load more',
  filters: 'Filters',
  showFilters: 'Filters',
  closeFilters: 'Close filters',
  applyFilters: 'Show results',
  sortLabel: 'Sort by',
  sortNames: {
    relevance: 'Best match',
    newest: 'Newest',
    'price-asc': 'Price: low to high',
    'price-desc': 'Price: high to low',
    distance: 'Nearest first',
  } satisfies Record<SearchSort, string>,
  category: 'Category',
  anyCategory: 'Any category',
  condition: 'Condition',
  price: 'Price ($)',
  minPrice: 'Min price',
  maxPrice: 'Max price',
  location: 'Location',
  locationPlaceholder: 'e.g. Dhaka',
  verifiedOnly: 'Verified sellers only',
  includeSold: 'Include sold pieces',
  willItFit: 'Will it fit?',
  willItFitHint: 'Pieces without measurements are left out.',
  space: 'Your space (cm)',
  door: 'Your doorway (cm)',
  width: 'Width',
  depth: 'Depth',
  height: 'Height',
  atLeast: (count: string) => `${count}+`,
  about: (count: string) => `about ${count}`,
  /** A value an estimate of a broad search saw too few matches of to count. */
  aFew: 'a few',
  searchCategory: 'Search',
  searchInCategory: (name: string) => `Search ${name}`,
  filterCategory: 'Search and filter this category',
} as const;

export const productPageTexts = {
  /** A listing that is no longer on the marketplace (answered 410). */
  gone: 'This listing is no longer on the marketplace.',
  goneTitle: (productName: string) => `${productName} is gone`,
  goneExplained: 'It was taken down or withdrawn, or its time on the marketplace ran out, so it cannot be booked. These similar pieces are on sale now.',
  goneNoSimilar: 'Nothing similar is on sale right now. Search for something else, or look around from Home.',
  measurements: 'Measurements',
  measurementsValue: (m: Measurements) => `${m.widthCm} × ${m.depthCm} × ${m.heightCm} cm (W × D × H)`,
  noMeasurements: 'The seller gave no measurements.',
  seller: 'Seller',
  memberSince: (date: string) => `Member since ${date}`,
  itemsSold: (count: number) => `${counted(count, 'item')} sold`,
  similar: 'Similar pieces',
  share: 'Copy link',
  shareCopied: 'Link copied',
  photoOf: (index: number, total: number) => `Photo ${index} of ${total}`,
  previousPhoto: 'Previous photo',
  nextPhoto: 'Next photo',
  showPhoto: (index: number) => `Show photo ${index}`,
  viewFullScreen: 'View full screen',
  closeFullScreen: 'Close full screen',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  category: 'Category',
  notFound: 'This piece is not listed (any more).',
} as const;

export const priceGuideTexts = {
  title: 'Fair-price guide',
  range: (low: string, high: string) => `Similar pieces sell for ${low} – ${high}`,
  typical: (typical: string) => `Typical: ${typical}`,
  fromSales: (count: number) => `Based on ${counted(count, 'similar sale', 'similar sales')} here.`,
  estimate: 'An estimate from the original price, age and condition: too few similar pieces have sold here yet.',
  askFirst: 'Choose a category and condition, and enter the original price and years of use to see a suggested price.',
  tooHigh: 'Your price is well above what similar pieces sell for; it may take long to sell.',
  tooLow: 'Your price is well below what similar pieces sell for; you may be giving it away.',
} as const;

export const addProductTexts = {
  /** A new listing's form keeps what was typed on this device until the listing is added. */
  draftRestored: 'This is the draft you started. Photos are not kept: add them again.',
  startOver: 'Start over',
  leave: {
    title: 'Leave this page?',
    body: 'What you entered here is not saved yet.',
    stay: 'Stay',
    leave: 'Leave',
  },
  productCategory: 'Product Category',
  /** The category select's empty first option. */
  chooseCategory: 'Select a category',
  yearsOfUse: 'Years of Use',
  yearsOfUsePlaceholder: 'e.g. 2 years',
  sellerName: 'Seller Name',
  sellerEmail: 'Seller Email',
  measurements: 'Measurements (cm, optional)',
  photos: 'Photos',
  photosHint: (max: number) => `Up to ${max} photos; the first is the cover. Reorder with the arrows.`,
  addPhotos: 'Add photos',
  moveEarlier: 'Move earlier',
  moveLater: 'Move later',
  removePhoto: 'Remove photo',
  cover: 'Cover',
  /** How a photo already on the listing is named beside the arrows that move it (new ones go by their file's name). */
  currentPhoto: (position: number) => `Current photo ${position}`,
  photosRequired: 'Add at least one photo',
  /** The condition select's empty first option: the seller chooses, nothing is assumed. */
  chooseCondition: 'Choose the condition',
  conditionRequired: 'Condition is required: choose one',
  tooManyPhotos: (max: number) => `At most ${max} photos`,
  measurementsIncomplete: 'Give width, depth and height, or none of them',
} as const;
