import { describe, expect, it } from 'vitest';
import { formatPrice } from './format.ts';

describe('formatPrice', () => {
  it('shows whole prices without cents and separates thousands', () => {
    expect(formatPrice(1200)).toBe('$1,200');
    expect(formatPrice('99.5')).toBe('$99.50');
  });

  it('puts the minus sign before the dollar sign', () => {
    expect(formatPrice(-135)).toBe('-$135');
    expect(formatPrice('-1234.5')).toBe('-$1,234.50');
  });
});
