import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fitsInSpace, fitsThroughDoorway, rectangleFits } from './fit-geometry.ts';

const length = fc.double({ min: 1, max: 300, noNaN: true });
const piece = fc.record({ widthCm: length, depthCm: length, heightCm: length });
const door = fc.record({ widthCm: length, heightCm: length });

/** Tries the rectangle p × q turned by many angles inside a × b; the slow, obvious check. */
function fitsAtSomeAngle(p: number, q: number, a: number, b: number): boolean {
  const steps = 20_000;
  for (let step = 0; step <= steps; step++) {
    const angle = (step / steps) * (Math.PI / 2);
    const across = p * Math.cos(angle) + q * Math.sin(angle);
    const up = p * Math.sin(angle) + q * Math.cos(angle);
    if ((across <= a && up <= b) || (across <= b && up <= a)) return true;
  }
  return false;
}

const ordered = (x: number, y: number) => [Math.max(x, y), Math.min(x, y)] as const;

describe('rectangleFits', () => {
  test.prop([length, length, length, length], { numRuns: 300 })('says yes whenever some angle fits', (x, y, u, v) => {
    const [p, q] = ordered(x, y);
    const [a, b] = ordered(u, v);
    if (fitsAtSomeAngle(p, q, a, b)) expect(rectangleFits(p, q, a, b)).toBe(true);
  });

  test.prop([length, length, length, length], { numRuns: 300 })('says yes only when an angle fits (given a hair of room)', (x, y, u, v) => {
    const [p, q] = ordered(x, y);
    const [a, b] = ordered(u, v);
    if (rectangleFits(p, q, a, b)) expect(fitsAtSomeAngle(p * 0.995, q * 0.995, a, b)).toBe(true);
  });

  test.prop([length, length, length, length, length])('a larger opening takes whatever a smaller one takes', (x, y, u, v, extra) => {
    const [p, q] = ordered(x, y);
    const [a, b] = ordered(u, v);
    if (rectangleFits(p, q, a, b)) expect(rectangleFits(p, q, a + extra, b)).toBe(true);
    if (rectangleFits(p, q, a, b)) expect(rectangleFits(p, q, Math.max(a, b + extra), Math.min(a, b + extra))).toBe(true);
  });
});

describe('fitsThroughDoorway', () => {
  test.prop([piece, door])('does not depend on how the piece or the door is described', (item, opening) => {
    const answer = fitsThroughDoorway(item, opening);
    expect(fitsThroughDoorway({ widthCm: item.heightCm, depthCm: item.widthCm, heightCm: item.depthCm }, opening)).toBe(answer);
    expect(fitsThroughDoorway(item, { widthCm: opening.heightCm, heightCm: opening.widthCm })).toBe(answer);
  });

  test.prop([piece, door])('passes exactly when one of the three faces passes at some angle', (item, opening) => {
    const [a, b] = ordered(opening.widthCm, opening.heightCm);
    const faces = [
      [item.widthCm, item.depthCm],
      [item.widthCm, item.heightCm],
      [item.depthCm, item.heightCm],
    ].map(([x, y]) => ordered(x!, y!));
    const anyFace = faces.some(([p, q]) => rectangleFits(p, q, a, b));
    expect(fitsThroughDoorway(item, opening)).toBe(anyFace);
  });

  test.prop([piece])('passes a doorway the size of its smallest face', (item) => {
    const [smallest, middle] = [item.widthCm, item.depthCm, item.heightCm].sort((x, y) => x - y);
    expect(fitsThroughDoorway(item, { widthCm: smallest!, heightCm: middle! })).toBe(true);
  });
});

describe('fitsInSpace', () => {
  test.prop([piece])('fits a space of its own size, either way round, and not a space smaller in height', (item) => {
    expect(fitsInSpace(item, { widthCm: item.widthCm, depthCm: item.depthCm, heightCm: item.heightCm })).toBe(true);
    expect(fitsInSpace(item, { widthCm: item.depthCm, depthCm: item.widthCm, heightCm: item.heightCm })).toBe(true);
    expect(fitsInSpace(item, { heightCm: item.heightCm * 0.99 })).toBe(false);
  });

  test.prop([piece, fc.record({ widthCm: length, depthCm: length, heightCm: length })])(
    'a piece that fits a space fits every larger space',
    (item, space) => {
      if (fitsInSpace(item, space)) {
        expect(fitsInSpace(item, { widthCm: space.widthCm + 1, depthCm: space.depthCm + 1, heightCm: space.heightCm + 1 })).toBe(true);
      }
    },
  );
});
