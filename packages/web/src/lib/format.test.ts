import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatPrice } from './format.ts';

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

describe('dates', () => {
  it('shows a moment without seconds and a day as people say them, in the time zone asked for', () => {
    expect(formatDateTime('2026-11-29T23:30:44Z', 'UTC')).toBe('Nov 29, 2026, 11:30 PM');
    expect(formatDate('2026-11-23T00:00:00Z', 'UTC')).toBe('Nov 23, 2026');
    expect(formatDate('2026-11-23T00:00:00Z', 'America/New_York')).toBe('Nov 22, 2026');
  });
});
