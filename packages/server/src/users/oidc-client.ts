import * as client from 'openid-client';
import type { Config } from '../config.ts';
import type { OidcAttempt } from './oidc-cookies.ts';
import type { OidcProfile } from './oidc-accounts.ts';

type OidcSettings = NonNullable<Config['oidc']>;

export const OIDC_SCOPE = 'openid email profile';
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

/** Plain http is accepted only for an issuer on this machine (a local provider for development). */
const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * The relying party of one app instance. The issuer's discovery document is fetched on first use
 * and kept; a failed discovery is forgotten, so the next sign-in tries again.
 */
export function createOidcClient(settings: OidcSettings, publicUrl: string) {
  const issuer = new URL(settings.issuer);
  const redirectUri = `${publicUrl}${OIDC_CALLBACK_PATH}`;
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(issuer, settings.clientId, { client_secret: settings.clientSecret }, client.ClientSecretPost(settings.clientSecret), {
        execute: issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  return {
    redirectUri,

    /** Whether an error of completeAuthorization is the provider's answer that the person did not sign in (cancelled, refused). */
    isProviderRefusal: (error: unknown): error is client.AuthorizationResponseError => error instanceof client.AuthorizationResponseError,

    /** Where to send the browser, and the secrets to keep until it comes back. */
    async authorizationRequest(): Promise<{ url: URL; attempt: OidcAttempt }> {
      const config = await configuration();
      const attempt: OidcAttempt = {
        verifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: OIDC_SCOPE,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(attempt.verifier),
        code_challenge_method: 'S256',
        state: attempt.state,
        nonce: attempt.nonce,
      });
      return { url, attempt };
    },

    /**
     * Exchanges the code of the provider's answer (the query of the callback URL) for tokens,
     * checking state, PKCE and the ID token (signature, issuer, audience, expiry, nonce), and
     * reads the person's profile from the ID token, or from userinfo where the ID token lacks it.
     */
    async completeAuthorization(callbackQuery: string, attempt: OidcAttempt): Promise<OidcProfile> {
      const config = await configuration();
      const currentUrl = new URL(`${redirectUri}${callbackQuery}`);
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: attempt.verifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      let claims: Record<string, unknown> = { ...tokens.claims()! };
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        claims = { ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
      }
      return {
        issuer: config.serverMetadata().issuer,
        subject: String(claims.sub),
        email: typeof claims.email === 'string' ? claims.email : undefined,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: typeof claims.name === 'string' ? claims.name : undefined,
        picture: typeof claims.picture === 'string' ? claims.picture : undefined,
      };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
