import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-log.ts';

describe('redactUrl', () => {
  it('hides the live event ticket in a logged URL, and leaves the rest as it was', () => {
    expect(redactUrl('/api/events?ticket=gLrjsqRli4cc2A3N')).toBe('/api/events?ticket=[redacted]');
    expect(redactUrl('/api/events?after=12&ticket=abc&x=1')).toBe('/api/events?after=12&ticket=[redacted]&x=1');
    expect(redactUrl('/api/events?after=12')).toBe('/api/events?after=12');
    expect(redactUrl('/api/products?noticket=1')).toBe('/api/products?noticket=1');
  });

  it('hides the unsubscribe token, sign-in codes and any signature, whatever else the URL holds', () => {
    expect(redactUrl('/api/notification-settings/unsubscribe?token=perm4nent')).toBe('/api/notification-settings/unsubscribe?token=[redacted]');
    expect(redactUrl('/api/auth/oidc/callback?code=c0de&state=st4te')).toBe('/api/auth/oidc/callback?code=[redacted]&state=[redacted]');
    expect(redactUrl('/files/a.webp?expires=1&signature=abc')).toBe('/files/a.webp?expires=1&signature=[redacted]');
    expect(redactUrl('/x?resetToken=abc#frag')).toBe('/x?resetToken=[redacted]#frag');
  });

  it('hides e-mail addresses, plain or percent-encoded, in the query and the path', () => {
    expect(redactUrl('/api/user?email=rahim@example.com')).toBe('/api/user?email=[email]');
    expect(redactUrl('/api/booking?email=rahim%40example.com&page=2')).toBe('/api/booking?email=[email]&page=2');
    expect(redactUrl('/api/users/rahim@example.com/profile')).toBe('/api/users/[email]/profile');
  });
});
