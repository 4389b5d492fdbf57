import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerAccessControl } from './http/access.ts';
import { serverDir, webDistDir } from './server-dir.ts';
import { registerErrorHandler } from './http/errors.ts';
import { openApiTransform } from './http/openapi.ts';
import { registerControlCharacterCheck } from './http/control-characters.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { blockLogDestination } from './http/log-destination.ts';
import { registerCors } from './http/cors.ts';
import { censorSecrets, RequestLog, serializeError, serializeRequest } from './http/request-log.ts';
import { clientConfigRoutes } from './client-config/client-config-routes.ts';
import { healthRoutes } from './health/health-routes.ts';
import { createAccessTokens, type AccessTokens } from './users/access-tokens.ts';
import { authRoutes } from './users/auth-routes.ts';
import { accountRoutes } from './users/account-routes.ts';
import { meRoutes } from './users/me-routes.ts';
import { passkeyRoutes } from './users/passkey-routes.ts';
import { secondStepRoutes } from './users/second-step-routes.ts';
import { sellingRoutes } from './users/selling-routes.ts';
import { accountDataRoutes } from './account-data/account-data-routes.ts';
import { registerAccountMail } from './users/account-mail.ts';
import { createPaymentProvider } from './payments/create-payment-provider.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import { paymentRoutes } from './payments/payment-routes.ts';
import { registerPaymentNotices } from './payments/payment-notices.ts';
import { registerIntentReconciliation } from './payments/payment-reconciliation.ts';
import { registerRefundRetries } from './payments/refund-retry.ts';
import { registerListingExpiry } from './sales/listing-expiry-jobs.ts';
import { registerFundsRelease } from './sales/funds-release-jobs.ts';
import { buyerProtectionRoutes } from './sales/buyer-protection-routes.ts';
import { earningsRoutes } from './ledger/earnings-routes.ts';
import { payoutRoutes } from './payouts/payout-routes.ts';
import type { PayoutProvider } from './payouts/payout-provider.ts';
import { createPayoutProvider } from './payouts/create-payout-provider.ts';
import { registerPayouts } from './payouts/payout-jobs.ts';
import { saleRoutes } from './sales/sale-routes.ts';
import { bookAtAgreedPrice, type RefundPayment } from './sales/sale-transitions.ts';
import { refundPayment } from './payments/fulfilment.ts';
import { userRoutes } from './users/user-routes.ts';
import { findUserById } from './users/user-repository.ts';
import { findSessionUser } from './users/refresh-tokens.ts';
import { hasSecondStep } from './users/second-step.ts';
import { categoryRoutes } from './categories/category-routes.ts';
import { productRoutes } from './products/product-routes.ts';
import { categoryProductRoutes } from './products/category-products-routes.ts';
import { searchRoutes } from './search/search-routes.ts';
import { placeRoutes } from './places/place-routes.ts';
import { priceGuideRoutes } from './price-guide/price-guide-routes.ts';
import { wishRoutes } from './wishes/wish-routes.ts';
import { productMarkRoutes } from './product-marks/product-mark-routes.ts';
import { conversationRoutes } from './conversations/conversation-routes.ts';
import { registerOfferExpiry } from './conversations/offer-expiry-jobs.ts';
import { notificationRoutes } from './notifications/notification-routes.ts';
import { registerNotificationMail } from './notifications/notification-mail.ts';
import { bookingRoutes } from './bookings/booking-routes.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { auditRoutes } from './audit/audit-routes.ts';
import { moderationRoutes } from './moderation/moderation-routes.ts';
import { reviewRoutes } from './reviews/review-routes.ts';
import { contactRoutes } from './products/contact-routes.ts';
import { imageRoutes } from './images/image-routes.ts';
import { registerImages } from './images/images-plugin.ts';
import { oidcRoutes } from './users/oidc-routes.ts';
import { registerWebApp } from './web-app/web-app-routes.ts';
import { jobsPlugin, type JobsPluginOptions } from './jobs/jobs-plugin.ts';
import { databaseListenerPlugin } from './db/listener.ts';
import { liveEventsPlugin } from './events/live-events-plugin.ts';
import { liveEventRoutes } from './events/live-event-routes.ts';
import { mailPlugin } from './mail/mail-plugin.ts';
import { dataVersionsPlugin } from './cache/data-versions.ts';
import { responseCachePlugin } from './cache/response-cache.ts';
import { productViewsPlugin } from './products/product-views.ts';
import { registerBackups } from './backups/backups-plugin.ts';
import { uploadsBackupDir, type BackupLocations } from './backups/backups.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    accessTokens: AccessTokens;
    payments: PaymentProvider;
    payouts: PayoutProvider;
  }
}

export interface AppDependencies {
  config: Config;
  db: Database;
  /** The card payment provider; by default the one the configuration chooses. */
  payments?: PaymentProvider;
  /** Who pays sellers out; by default the one the configuration chooses (decision 42). */
  payouts?: PayoutProvider;
  /** The built web app to serve; by default packages/web/dist. */
  webDir?: string;
  /** Options of the job queue's worker on this app server. */
  jobs?: JobsPluginOptions;
  /** Where the embedded database (on a schedule) and each uploaded image (as it is stored) are backed up; none when not given. */
  backups?: BackupLocations;
  /** Where the log goes: standard output unless given. */
  logStream?: { write(line: string): void };
}

export type App = FastifyInstance;

const demoPicturesDir = path.join(serverDir, 'src/demo/pictures');

/**
 * Every route validates and serializes with its zod schemas. Given as the server's compilers rather
 * than set after, Fastify's own (Ajv, fast-json-stringify) are never loaded: a start-up cost.
 * Fastify types these factories for Ajv; it calls them for any compiler of a route's schema.
 */
const zodCompilers = { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as unknown as NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/** Builds the whole application without listening: the process entry point and the tests both use it. */
export async function buildApp({ config, db, payments, payouts, jobs, backups, logStream, webDir = webDistDir }: AppDependencies): Promise<App> {
  // Standard output written in the background, in blocks of 16 KB or every 100 ms: a write for each
  // line as it was logged cost a busy server a fifth of its time.
  const logDestination =
    config.logLevel === 'silent' ? undefined : (logStream ?? blockLogDestination(1, { blockBytes: 16 * 1024, flushMs: 100 }));
  const logger: FastifyBaseLogger | undefined =
    logDestination &&
    pino(
      {
        level: config.logLevel,
        serializers: { req: serializeRequest, err: serializeError, error: serializeError },
        // No secret reaches the log, even one logged by mistake.
        formatters: { log: censorSecrets },
      },
      logDestination,
    );
  const app = Fastify({
    loggerInstance: logger,
    logController: logDestination && new RequestLog(pino({ level: config.logLevel }, logDestination)),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    schemaController: { compilersFactory: zodCompilers },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('payments', payments ?? (await createPaymentProvider(config.payments, db)));
  app.decorate('payouts', payouts ?? (await createPayoutProvider(config, db)));
  app.decorate('accessTokens', await createAccessTokens(db, { secret: config.jwtSecret }));

  registerSecurityHeaders(app, {
    // The Google sign-in popup reports back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    contentSecurityPolicy: {
      directives: {
        'upgrade-insecure-requests': config.secureCookies ? [] : null,
        // Uploaded and listed images may come from any https host (the specification's image host included).
        'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        'script-src': ["'self'", 'https://js.stripe.com'],
        'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
        'connect-src': ["'self'", 'https://api.stripe.com'],
      },
    },
  });
  registerCors(app, config.corsOrigin);
  await app.register(cookie);
  await app.register(databaseListenerPlugin);
  await app.register(dataVersionsPlugin);
  await app.register(responseCachePlugin);
  // Answers above 1 KB go out compressed when the client accepts it; the web app's files were
  // compressed at build time and are sent as they are (before static files, as the plugin needs).
  await app.register(compress, { threshold: 1024 });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Used furniture marketplace API', version: '1.0.0' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: openApiTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  registerErrorHandler(app);
  registerControlCharacterCheck(app);
  registerAccessControl(app, { findUser: findUserById, findSessionUser, hasSecondStep });
  await app.register(jobsPlugin, jobs ?? {});
  await app.register(productViewsPlugin);
  await app.register(liveEventsPlugin);
  await app.register(mailPlugin);
  await registerImages(app, { backupDir: backups && uploadsBackupDir(backups.backupDir) });
  registerRefundRetries(app);
  registerIntentReconciliation(app);
  registerPaymentNotices(app);
  registerListingExpiry(app);
  registerFundsRelease(app);
  registerPayouts(app);
  registerOfferExpiry(app);
  registerNotificationMail(app);
  registerAccountMail(app);
  if (backups) registerBackups(app, backups);

  await app.register(
    async (api) => {
      // Browsers and proxies keep no API answer whose route does not say how (the response cache's
      // public answers and a person's own lists do): personal data stays off a shared computer's disk.
      api.addHook('onRequest', (_request, reply, done) => {
        reply.header('cache-control', 'no-store');
        done();
      });
      await api.register(healthRoutes);
      await api.register(clientConfigRoutes);
      await api.register(authRoutes);
      await api.register(accountRoutes);
      await api.register(meRoutes);
      await api.register(passkeyRoutes);
      await api.register(secondStepRoutes);
      await api.register(sellingRoutes);
      await api.register(paymentRoutes, { stripeAccountUpdated: async (accountId) => app.payouts.accountUpdated?.(accountId) });
      await api.register(userRoutes);
      await api.register(categoryRoutes);
      await api.register(productRoutes);
      await api.register(categoryProductRoutes);
      await api.register(searchRoutes);
      await api.register(placeRoutes);
      await api.register(priceGuideRoutes);
      await api.register(wishRoutes);
      await api.register(productMarkRoutes);
      await api.register(bookingRoutes);
      // Sales and conversations take these steps of the domains above them (decision 40).
      const refund: RefundPayment = (payment) => refundPayment({ db: app.db, payments: app.payments }, payment);
      await api.register(saleRoutes, { refundPayment: refund });
      await api.register(buyerProtectionRoutes, { refundPayment: refund });
      await api.register(accountDataRoutes, { refundPayment: refund });
      await api.register(earningsRoutes);
      await api.register(payoutRoutes);
      await api.register(conversationRoutes, { bookAtAgreedPrice });
      await api.register(notificationRoutes);
      await api.register(adminRoutes);
      await api.register(auditRoutes);
      await api.register(moderationRoutes);
      await api.register(reviewRoutes);
      await api.register(contactRoutes);
      await api.register(imageRoutes);
      await api.register(oidcRoutes);
      await api.register(liveEventRoutes);
    },
    { prefix: '/api' },
  );

  // Pictures of the demo catalogue, served by the app itself; like uploads, they may be shown by a
  // page of any origin (another client of the API), so they opt out of helmet's same-origin policy.
  await app.register(fastifyStatic, {
    root: demoPicturesDir,
    prefix: '/demo/',
    decorateReply: false,
    maxAge: '1d',
    setHeaders: (reply) => {
      reply.header('cross-origin-resource-policy', 'cross-origin');
    },
  });
  await registerWebApp(app, webDir);
  return app;
}
