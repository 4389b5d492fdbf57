import { locationTexts, type LatLon } from '@furniture/contract';
import { useEffect, useRef } from 'react';
import { useAppConfig } from '../lib/app-config.ts';
import { createMap, L } from '../lib/base-map.ts';

/** The circle drawn around a listing's town: wider than the kilometre its point is rounded to, so it never points at a door. */
const AREA_RADIUS_M = 3000;

/** A small map of the area a piece is in: a circle around its town's point, no pin. Loaded with Leaflet when shown. */
export default function AreaMap({ point, place }: { point: LatLon; place: string }) {
  const { data: config } = useAppConfig();
  const element = useRef<HTMLDivElement>(null);
  const mapTiles = config?.mapTiles;

  useEffect(() => {
    if (!element.current || mapTiles === undefined) return;
    const map = createMap(element.current, mapTiles, locationTexts.areaLabel(place));
    const centre = L.latLng(point.lat, point.lon);
    // The view first: a circle added to a map without one has no bounds yet.
    map.fitBounds(centre.toBounds(AREA_RADIUS_M * 2), { padding: [40, 40], animate: false, maxZoom: 12 });
    L.circle(centre, { radius: AREA_RADIUS_M, className: 'area-circle', color: '#1d4ed8', weight: 2, fillOpacity: 0.2, interactive: false }).addTo(map);
    return () => void map.remove();
  }, [mapTiles, point.lat, point.lon, place]);

  return <div ref={element} data-testid="area-map" className="h-56 w-full rounded-box border border-base-300" />;
}
