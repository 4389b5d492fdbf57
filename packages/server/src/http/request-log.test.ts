import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-log.ts';

describe('redactUrl', () => {
  it('hides the live event ticket in a logged URL, and leaves the rest as it was', () => {
    expect(redactUrl('/api/events?ticket=gLrjsqRli4cc2A3N')).toBe('/api/events?ticket=[redacted]');
    expect(redactUrl('/api/events?after=12&ticket=abc&x=1')).toBe('/api/events?after=12&ticket=[redacted]&x=1');
    expect(redactUrl('/api/events?after=12')).toBe('/api/events?after=12');
    expect(redactUrl('/api/products?noticket=1')).toBe('/api/products?noticket=1');
  });
});
