import path from 'node:path';
import { socialNetworkOf } from '@furniture/contract';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : value === 'true' || value === '1'));

const envSchema = z
  .object({
    PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(5000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    BACKUP_DIR: optionalText,
    DATABASE_URL: optionalText.pipe(
      z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
    ),
    PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    CORS_ORIGIN: optionalText,
    TRUST_PROXY: optionalText,
    JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    ADMIN_EMAIL: optionalText.pipe(z.email({ error: 'must be an e-mail address' }).optional()),
    ADMIN_PASSWORD: optionalText,
    DEMO_DATA: booleanFlag(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PLATFORM_FEE_PERCENT: z.coerce.number({ error: 'must be a number' }).min(0).max(100).multipleOf(0.01, 'must be a percentage in steps of 0.01').default(10),
    PLATFORM_FEE_FIXED_CENTS: z.coerce.number({ error: 'must be a whole number of cents' }).int().min(0).default(0),
    RELEASE_AFTER_HOURS: z.coerce.number({ error: 'must be a number of hours' }).positive().default(48),
    PAYOUT_SCHEDULE: z.enum(['daily', 'weekly', 'manual'], { error: 'must be daily, weekly or manual' }).default('daily'),
    ADMIN_SECOND_STEP: z.enum(['required', 'optional'], { error: 'must be required or optional' }).default('required'),
    PAYMENT_PROVIDER: z.enum(['simulated', 'stripe'], { error: 'must be simulated or stripe' }).default('simulated'),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_PUBLISHABLE_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    STRIPE_CONNECT_WEBHOOK_SECRET: optionalText,
    OIDC_ISSUER: z.url({ error: 'must be an URL' }).default('https://accounts.google.com'),
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    S3_BUCKET: optionalText,
    S3_REGION: z.string().default('us-east-1'),
    S3_ENDPOINT: optionalText.pipe(z.url({ error: 'must be an URL' }).optional()),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_PUBLIC_URL: optionalText.pipe(z.url({ error: 'must be an URL' }).optional()),
    SOCIAL_LINKS: optionalText.pipe(
      z
        .string()
        .transform((value) => value.split(',').map((url) => url.trim()).filter(Boolean))
        .pipe(
          z.array(
            z.url({ protocol: /^https$/, error: 'must be https:// URLs of Twitter, YouTube or Facebook profiles, separated by commas' }).refine(
              (url) => socialNetworkOf(url) !== undefined,
              'must be https:// URLs of Twitter, YouTube or Facebook profiles, separated by commas',
            ),
          ),
        )
        .optional(),
    ),
    GEOCODER_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    MAP_TILES_URL: optionalText.pipe(
      z
        .string()
        .regex(/^https?:\/\/.*\{z\}.*\{x\}.*\{y\}/, 'must be an http(s) URL template holding {z}, {x} and {y}')
        .optional(),
    ),
    MAP_TILES_ATTRIBUTION: optionalText,
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
    MAIL_FROM: optionalText.pipe(
      z.string().regex(/^([^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, 'must be an e-mail address, optionally as Name <address>').optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'ADMIN_EMAIL and ADMIN_PASSWORD go together' });
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENT_PROVIDER=stripe' });
      }
    }
    if (env.OIDC_CLIENT_ID && !env.OIDC_CLIENT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_SECRET'], message: 'is required when OIDC_CLIENT_ID is set' });
    }
  });

export type Config = ReturnType<typeof toConfig>;

/**
 * Whose X-Forwarded-For to believe for the caller's address (which per-address limits count):
 * nobody's by default, since any caller can send that header; a hop count or the proxies'
 * addresses when the app runs behind them.
 */
function trustProxyOf(value: string | undefined): boolean | string | ((address: string, hop: number) => boolean) {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

function toConfig(env: z.infer<typeof envSchema>) {
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    /** Where the embedded database and the uploaded images are backed up; DATA_DIR/backups when unset (decision 36). */
    backupDir: env.BACKUP_DIR === undefined ? undefined : path.resolve(env.BACKUP_DIR),
    databaseUrl: env.DATABASE_URL,
    publicUrl,
    corsOrigin: env.CORS_ORIGIN ?? new URL(publicUrl).origin,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    jwtSecret: env.JWT_SECRET,
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
    demoData: env.DEMO_DATA,
    logLevel: env.LOG_LEVEL,
    /** The marketplace's own social profiles, for the footer. */
    socialLinks: env.SOCIAL_LINKS ?? [],
    /** A Nominatim-compatible service place suggestions also ask (decision 47); the gazetteer alone when unset. */
    geocoderUrl: env.GEOCODER_URL?.replace(/\/$/, ''),
    /** The map's tiles (an {z}/{x}/{y} template) and their credit; without them the map draws countries' outlines. */
    mapTiles: env.MAP_TILES_URL ? { url: env.MAP_TILES_URL, attribution: env.MAP_TILES_ATTRIBUTION ?? '' } : null,
    payments:
      env.PAYMENT_PROVIDER === 'stripe'
        ? {
            provider: 'stripe' as const,
            secretKey: env.STRIPE_SECRET_KEY!,
            publishableKey: env.STRIPE_PUBLISHABLE_KEY!,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
            /** The Connect endpoint's signing secret: sellers' account events (decision 42). */
            ...(env.STRIPE_CONNECT_WEBHOOK_SECRET ? { connectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET } : {}),
          }
        : { provider: 'simulated' as const },
    /** The platform's fee, fixed on each booking when it is made (decision 33). */
    fee: { percent: env.PLATFORM_FEE_PERCENT, fixedCents: env.PLATFORM_FEE_FIXED_CENTS },
    /** Buyer protection: a sale's money is released this long after the handover unless the buyer reports a problem. */
    releaseAfterHours: env.RELEASE_AFTER_HOURS,
    /** When sellers' available money is paid out without being asked (decision 34); manual: only on request. */
    payoutSchedule: env.PAYOUT_SCHEDULE,
    /** Whether admin screens and calls need a session signed in with a second step (decision 38). */
    adminSecondStep: env.ADMIN_SECOND_STEP,
    oidc: env.OIDC_CLIENT_ID
      ? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET! }
      : undefined,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          publicUrl: env.S3_PUBLIC_URL,
        }
      : undefined,
    mail: {
      /** Where e-mail is sent; without it, each message is written to DATA_DIR/mail as an .eml file. */
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `Used Furniture <no-reply@${new URL(publicUrl).hostname}>`,
    },
    /** Secure cookies whenever the public address is https. */
    secureCookies: publicUrl.startsWith('https://'),
    /**
     * From how many listings holding a search's rarest word its facets are estimated from the
     * sample (FACET_SAMPLE_FROM when unset; tests lower it rather than seed tens of thousands).
     */
    facetSampleFrom: undefined as number | undefined,
  };
}

export class ConfigError extends Error {}

/** Reads the settings from the environment; a bad one throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'settings');
    throw new ConfigError(`Invalid setting ${name}: ${issue.message}`);
  }
  return toConfig(parsed.data);
}

/** A configuration for tests and tools: defaults with the given overrides. */
export function configFrom(overrides: Partial<Config>, env: NodeJS.ProcessEnv = {}): Config {
  return { ...loadConfig(env), ...overrides };
}
