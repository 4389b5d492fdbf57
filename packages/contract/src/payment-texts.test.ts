import { describe, expect, it } from 'vitest';
import { formatCents } from './payment-texts.ts';

describe('formatCents', () => {
  it('writes dollars and cents after the dollar sign', () => {
    expect(formatCents(15_000)).toBe('$150.00');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(0)).toBe('$0.00');
  });

  it('puts the minus sign before the dollar sign', () => {
    expect(formatCents(-13_500)).toBe('-$135.00');
    expect(formatCents(-5)).toBe('-$0.05');
  });
});
