import { and, sql, type SQL } from 'drizzle-orm';
import type { Measurements } from '@furniture/contract';
import { products } from '../db/schema/index.ts';

/**
 * "Will it fit?" (decision 12). A piece is a rigid box of width × depth × height.
 *
 * In a space it stands upright (a wardrobe is not laid on its back in a room) and may be turned
 * about the vertical axis, so its footprint may line up either way with the space's width and depth.
 *
 * Through a doorway (a rectangular opening in a thin wall) it may be carried in any orientation,
 * and tilted within the plane of the opening. It passes when one of its faces passes the opening;
 * the face of its two smallest dimensions passes whenever any face does, so only that face is
 * checked: straight, or turned diagonally (Carver's condition for a rectangle inside a rectangle).
 */

export interface Space {
  widthCm?: number | undefined;
  depthCm?: number | undefined;
  heightCm?: number | undefined;
}

export interface Doorway {
  widthCm: number;
  heightCm: number;
}

/**
 * Whether a p × q rectangle (p ≥ q) fits inside an a × b rectangle (a ≥ b), turned if need be:
 * straight when p ≤ a and q ≤ b, or, when p > a, turned so that its diagonal runs across the
 * opening, when b ≥ (2pqa + (p² − q²)·√(p² + q² − a²)) / (p² + q²).
 */
export function rectangleFits(p: number, q: number, a: number, b: number): boolean {
  if (q > b) return false;
  if (p <= a) return true;
  const p2 = p * p;
  const q2 = q * q;
  return b >= (2 * p * q * a + (p2 - q2) * Math.sqrt(p2 + q2 - a * a)) / (p2 + q2);
}

export function fitsThroughDoorway(piece: Measurements, door: Doorway): boolean {
  const [smallest, middle] = [piece.widthCm, piece.depthCm, piece.heightCm].sort((x, y) => x - y) as [number, number, number];
  return rectangleFits(middle, smallest, Math.max(door.widthCm, door.heightCm), Math.min(door.widthCm, door.heightCm));
}

export function fitsInSpace(piece: Measurements, space: Space): boolean {
  if (space.heightCm !== undefined && piece.heightCm > space.heightCm) return false;
  const footprintMin = Math.min(piece.widthCm, piece.depthCm);
  const footprintMax = Math.max(piece.widthCm, piece.depthCm);
  const sides = [space.widthCm, space.depthCm].filter((side): side is number => side !== undefined);
  if (sides.length === 2) return footprintMin <= Math.min(...sides) && footprintMax <= Math.max(...sides);
  if (sides.length === 1) return footprintMin <= sides[0]!;
  return true;
}

/** The same rule as fitsInSpace, as a condition on the products table. */
export function fitsInSpaceSql(space: Space): SQL | undefined {
  const conditions: SQL[] = [];
  if (space.heightCm !== undefined) conditions.push(sql`${products.heightCm} <= ${space.heightCm}::numeric`);
  const sides = [space.widthCm, space.depthCm].filter((side): side is number => side !== undefined);
  if (sides.length === 2) {
    conditions.push(sql`${products.footprintMaxCm} <= ${Math.max(...sides)}::numeric`);
    conditions.push(sql`${products.footprintMinCm} <= ${Math.min(...sides)}::numeric`);
  } else if (sides.length === 1) {
    conditions.push(sql`${products.footprintMinCm} <= ${sides[0]!}::numeric`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The same rule as fitsThroughDoorway, as a condition on the products table. */
export function fitsThroughDoorwaySql(door: Doorway): SQL {
  const a = sql`${Math.max(door.widthCm, door.heightCm)}::numeric`;
  const b = sql`${Math.min(door.widthCm, door.heightCm)}::numeric`;
  const p = products.dimMidCm;
  const q = products.dimMinCm;
  // The first condition alone is what the index on the smallest dimension serves.
  return sql`(${q} <= ${b} and (${p} <= ${a} or ${b} >= (2 * ${p} * ${q} * ${a} + (${p} * ${p} - ${q} * ${q}) * sqrt(${p} * ${p} + ${q} * ${q} - ${a} * ${a})) / (${p} * ${p} + ${q} * ${q})))`;
}
