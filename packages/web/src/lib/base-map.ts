import type { ClientConfig } from '@furniture/contract';
import { locationTexts } from '@furniture/contract';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './base-map.css';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * A Leaflet map over the given element, on the server's tiles (MAP_TILES_URL) or, without them,
 * on the countries' outlines that ship with the app (Natural Earth, through world-atlas): no
 * outside service is asked by default (decision 47). Only the map's own modules import this, and
 * they are loaded when a map is shown.
 */
export function createMap(element: HTMLElement, mapTiles: ClientConfig['mapTiles'], label: string): L.Map {
  const map = L.map(element, { worldCopyJump: true, zoomSnap: 0.5 });
  map.attributionControl.setPrefix(false);
  // The container takes the focus (the arrow keys move the map): it says what it is.
  element.setAttribute('role', 'region');
  element.setAttribute('aria-label', label);
  if (mapTiles) {
    L.tileLayer(mapTiles.url, { attribution: mapTiles.attribution, maxZoom: 18 }).addTo(map);
  } else {
    element.style.background = 'var(--color-base-200, #eef2f5)';
    map.attributionControl.addAttribution(locationTexts.outlinesCredit);
    void drawOutlines(map);
  }
  return map;
}

async function drawOutlines(map: L.Map) {
  let removed = false;
  map.once('unload', () => {
    removed = true;
  });
  const atlas = (await import('world-atlas/countries-110m.json')).default as unknown as Topology<{ countries: GeometryCollection }>;
  // The page may have been left, and the map removed, while the outlines loaded.
  if (removed) return;
  const countries = feature(atlas, atlas.objects.countries);
  L.geoJSON(countries, {
    interactive: false,
    style: { color: '#64748b', weight: 1, fillColor: '#ffffff', fillOpacity: 1 },
  })
    .addTo(map)
    .bringToBack();
}

/** The visible area as the search URL's bbox: minLon,minLat,maxLon,maxLat, within the world's limits, to about 100 m. */
export function bboxOf(map: L.Map): string {
  const bounds = map.getBounds();
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, Math.round(value * 1000) / 1000));
  return [clamp(bounds.getWest(), 180), clamp(bounds.getSouth(), 90), clamp(bounds.getEast(), 180), clamp(bounds.getNorth(), 90)].join(',');
}

export { L };
