import { locationTexts, type Product } from '@furniture/contract';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useAppConfig } from '../../../lib/app-config.ts';
import { bboxOf, createMap, L } from '../../../lib/base-map.ts';
import { formatPrice } from '../../../lib/format.ts';
import { clusterByGrid } from './grid-clusters.ts';

/** How long the map rests after a move before that area is searched. */
const MOVE_PAUSE_MS = 400;
/** Pieces closer than this on the screen are drawn as one numbered circle. */
const CLUSTER_CELL_PX = 56;

/** The map's first view: the area of the URL's bbox, else around the results, else around the point searched near, else the world. */
function firstView(map: L.Map, bbox: string | null, products: readonly Product[], near: { lat: number; lon: number } | null) {
  const box = bbox?.split(',').map(Number);
  if (box?.length === 4 && box.every(Number.isFinite)) {
    map.fitBounds([[box[1]!, box[0]!], [box[3]!, box[2]!]], { animate: false });
    return;
  }
  const points = products.flatMap((product) => (product.point ? [L.latLng(product.point.lat, product.point.lon)] : []));
  if (points.length) map.fitBounds(L.latLngBounds(points), { maxZoom: 11, padding: [24, 24], animate: false });
  else if (near) map.setView([near.lat, near.lon], 10, { animate: false });
  else map.setView([20, 0], 2, { animate: false });
}

/**
 * The search results on a map (decision 47): a marker for each result with a point, pieces close
 * together on the screen gathered into a numbered circle (a click zooms in on them); moving or
 * zooming the map searches its area (`onArea` with a bbox, after a pause). Loaded only when the
 * map is opened, with Leaflet.
 */
export default function ResultsMap({
  products,
  bbox,
  near,
  onArea,
}: {
  products: readonly Product[];
  bbox: string | null;
  near: { lat: number; lon: number } | null;
  onArea: (bbox: string) => void;
}) {
  const { data: config } = useAppConfig();
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const markers = useRef<L.LayerGroup | null>(null);
  const navigate = useNavigate();
  // Read when the map moves, so the listener set once calls the latest.
  const latest = useRef({ onArea, products, navigate });
  latest.current = { onArea, products, navigate };
  const mapTiles = config?.mapTiles;

  useEffect(() => {
    if (!element.current || mapTiles === undefined) return;
    const created = createMap(element.current, mapTiles, locationTexts.mapLabel);
    map.current = created;
    markers.current = L.layerGroup().addTo(created);
    firstView(created, bbox, latest.current.products, near);
    drawMarkers();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Set after the first view, so only the person's moves search.
    created.on('moveend', () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current.onArea(bboxOf(created)), MOVE_PAUSE_MS);
    });
    created.on('zoomend', drawMarkers);
    return () => {
      clearTimeout(timer);
      created.remove();
      map.current = null;
    };
    // The first view is taken once (not again for each bbox the map's own moves put in the URL).
  }, [mapTiles]);

  useEffect(drawMarkers, [products]);

  function drawMarkers() {
    const shown = map.current;
    const layer = markers.current;
    if (!shown || !layer) return;
    layer.clearLayers();
    const located = latest.current.products.filter((product) => product.point);
    const clusters = clusterByGrid(
      located.map((product) => ({ item: product, at: shown.project([product.point!.lat, product.point!.lon]) })),
      CLUSTER_CELL_PX,
    );
    for (const cluster of clusters) {
      const centre = shown.unproject(L.point(cluster.x, cluster.y));
      if (cluster.items.length === 1) {
        const product = cluster.items[0]!;
        const price = formatPrice(product.resalePrice);
        L.marker(centre, {
          title: `${product.productName}, ${price}`,
          alt: product.productName,
          icon: L.divIcon({ className: 'results-map-marker', html: '', iconSize: [20, 20] }),
        })
          .on('click', () => void latest.current.navigate(paths.product.getHref(product._id)))
          .on('keypress', (event: L.LeafletKeyboardEvent) => {
            if (event.originalEvent.key === 'Enter') void latest.current.navigate(paths.product.getHref(product._id));
          })
          .addTo(layer);
      } else {
        const count = cluster.items.length;
        const bounds = L.latLngBounds(cluster.items.map((product) => [product.point!.lat, product.point!.lon]));
        L.marker(centre, {
          title: locationTexts.cluster(count),
          icon: L.divIcon({ className: 'results-map-cluster', html: `<span aria-hidden="true">${count}</span>`, iconSize: [34, 34] }),
        })
          .on('click', () => shown.fitBounds(bounds.pad(0.5), { maxZoom: shown.getZoom() + 3 }))
          .addTo(layer);
      }
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">{locationTexts.mapHint}</p>
      <div ref={element} data-testid="results-map" className="h-[60vh] min-h-80 w-full rounded-box border border-base-300" />
    </div>
  );
}
