import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientConfig, dataOf, socialNetworkOf } from '@furniture/contract';

/** The safe subset of the configuration that the web app needs. */
export const clientConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/config',
    {
      config: { access: 'public' },
      schema: { tags: ['config'], summary: 'Settings the web app needs', response: { 200: dataOf(clientConfig) } },
    },
    async () => {
      const { payments, oidc, socialLinks, fee, mapTiles } = app.config;
      return {
        success: true as const,
        data: {
          googleSignIn: Boolean(oidc),
          socialLinks: socialLinks.map((url) => ({ network: socialNetworkOf(url)!, url })),
          paymentProvider: payments.provider,
          stripePublishableKey: payments.provider === 'stripe' ? payments.publishableKey : null,
          platformFee: fee,
          mapTiles,
        },
      };
    },
  );
};
