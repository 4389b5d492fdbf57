/** A group of items drawn as one mark: their mean position on the screen. */
export interface GridCluster<T> {
  x: number;
  y: number;
  items: T[];
}

/**
 * Gathers items by the square of `cellPx` pixels (at the map's zoom) each falls in: one mark per
 * occupied square, at the mean of its items. Coarser than distance-based clustering, and enough to
 * keep one page of results readable.
 */
export function clusterByGrid<T>(points: ReadonlyArray<{ item: T; at: { x: number; y: number } }>, cellPx: number): GridCluster<T>[] {
  const cells = new Map<string, { sumX: number; sumY: number; items: T[] }>();
  for (const { item, at } of points) {
    const key = `${Math.floor(at.x / cellPx)}:${Math.floor(at.y / cellPx)}`;
    const cell = cells.get(key) ?? { sumX: 0, sumY: 0, items: [] };
    cell.sumX += at.x;
    cell.sumY += at.y;
    cell.items.push(item);
    cells.set(key, cell);
  }
  return [...cells.values()].map(({ sumX, sumY, items }) => ({ x: sumX / items.length, y: sumY / items.length, items }));
}
