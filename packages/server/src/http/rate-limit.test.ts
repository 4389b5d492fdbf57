import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from './rate-limit.ts';

describe('RATE_LIMITS', () => {
  it('gives every limit its own key prefix, so no two limits share a counter', () => {
    const prefixes = Object.values(RATE_LIMITS).map((limit) => limit.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    // A colon inside a prefix could make `<prefix>:<subject>` equal another limit's key.
    for (const prefix of prefixes) expect(prefix).toMatch(/^[a-z-]+$/);
  });
});
