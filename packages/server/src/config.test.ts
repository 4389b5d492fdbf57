import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs with no settings at all: port 5000, embedded database, simulated payments', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 5000, databaseUrl: undefined, publicUrl: 'http://localhost:5000', demoData: true });
    expect(config.payments.provider).toBe('simulated');
    expect(config.oidc).toBeUndefined();
  });

  it('sends e-mail through SMTP_URL when set, else to the outbox folder, from MAIL_FROM or an address of PUBLIC_URL', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: 'Used Furniture <no-reply@localhost>' });
    expect(loadConfig({ SMTP_URL: 'smtps://user:secret@mail.example.com:465', MAIL_FROM: 'Shop <shop@example.com>' }).mail).toEqual({
      smtpUrl: 'smtps://user:secret@mail.example.com:465',
      from: 'Shop <shop@example.com>',
    });
    expect(loadConfig({ PUBLIC_URL: 'https://furniture.example.com' }).mail.from).toBe('Used Furniture <no-reply@furniture.example.com>');
  });

  it('takes the marketplace’s social profiles from SOCIAL_LINKS, and refuses a link the footer has no icon for', () => {
    expect(loadConfig({}).socialLinks).toEqual([]);
    expect(loadConfig({ SOCIAL_LINKS: 'https://www.facebook.com/usedfurniture, https://x.com/usedfurniture' }).socialLinks).toEqual([
      'https://www.facebook.com/usedfurniture',
      'https://x.com/usedfurniture',
    ]);
    expect(() => loadConfig({ SOCIAL_LINKS: 'https://example.com/us' })).toThrow(ConfigError);
    expect(() => loadConfig({ SOCIAL_LINKS: 'http://facebook.com/us' })).toThrow(/SOCIAL_LINKS/);
  });

  it('takes a geocoder and map tiles only when set, and refuses a tiles URL without {z}, {x} and {y}', () => {
    expect(loadConfig({})).toMatchObject({ geocoderUrl: undefined, mapTiles: null });
    expect(loadConfig({ GEOCODER_URL: 'https://nominatim.example.com/' }).geocoderUrl).toBe('https://nominatim.example.com');
    expect(() => loadConfig({ GEOCODER_URL: 'ftp://nominatim.example.com' })).toThrow(/GEOCODER_URL/);
    expect(loadConfig({ MAP_TILES_URL: 'https://tiles.example.com/{z}/{x}/{y}.png', MAP_TILES_ATTRIBUTION: '© Example' }).mapTiles).toEqual({
      url: 'https://tiles.example.com/{z}/{x}/{y}.png',
      attribution: '© Example',
    });
    expect(() => loadConfig({ MAP_TILES_URL: 'https://tiles.example.com/tile.png' })).toThrow(/MAP_TILES_URL/);
  });

  it('trusts no proxy unless TRUST_PROXY says so: a hop count, true, or the proxies’ addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    const twoHops = loadConfig({ TRUST_PROXY: '2' }).trustProxy as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => twoHops('10.0.0.1', hop))).toEqual([true, true, false]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'Invalid setting PORT: must be a port number'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'Invalid setting DATABASE_URL: must be a postgres:// URL'],
    [{ JWT_SECRET: 'short' }, 'Invalid setting JWT_SECRET: must be at least 32 characters'],
    [{ ADMIN_EMAIL: 'admin@example.com' }, 'Invalid setting ADMIN_PASSWORD: ADMIN_EMAIL and ADMIN_PASSWORD go together'],
    [{ PAYMENT_PROVIDER: 'paypal' }, 'Invalid setting PAYMENT_PROVIDER: must be simulated or stripe'],
    [{ PAYMENT_PROVIDER: 'stripe' }, 'Invalid setting STRIPE_SECRET_KEY: is required when PAYMENT_PROVIDER=stripe'],
    [{ DEMO_DATA: 'maybe' }, 'Invalid setting DEMO_DATA: must be true or false'],
    [{ PLATFORM_FEE_PERCENT: '2.125' }, 'Invalid setting PLATFORM_FEE_PERCENT: must be a percentage in steps of 0.01'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'Invalid setting SMTP_URL: must be an smtp:// or smtps:// URL'],
    [{ MAIL_FROM: 'not an address' }, 'Invalid setting MAIL_FROM: must be an e-mail address, optionally as Name <address>'],
  ])('stops with one line naming the bad setting for %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
