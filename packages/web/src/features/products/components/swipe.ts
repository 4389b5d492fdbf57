/** A horizontal move of at least this many pixels is a swipe. */
const SWIPE_PX = 40;

/** The photo a horizontal move leads to: +1 (next) for a swipe to the left, -1 for one to the right, 0 for less than a swipe. */
export function swipeStep(movedPx: number): -1 | 0 | 1 {
  if (Math.abs(movedPx) < SWIPE_PX) return 0;
  return movedPx < 0 ? 1 : -1;
}
