import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** The person at the provider: the claims its ID tokens and userinfo carry. */
export interface IssuerAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture: string;
}

export interface TestIssuer {
  /** The issuer identifier, `http://127.0.0.1:<port>`: OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in next. Change it, or its claims, between sign-ins. */
  account: IssuerAccount;
  /** How many times the discovery document was fetched. */
  readonly discoveryRequests: number;
  close(): Promise<void>;
}

export interface TestIssuerOptions {
  /** The app's callback URLs, `${publicUrl}/api/auth/oidc/callback`. */
  redirectUris: string[];
  account?: Partial<IssuerAccount>;
  /**
   * true (the default), like Google: e-mail and profile claims are in the ID token. false: only
   * `sub` is, and the rest comes from userinfo (oidc-provider's standard behaviour).
   */
  claimsInIdToken?: boolean;
}

let accountCounter = 0;
export function newIssuerAccount(overrides: Partial<IssuerAccount> = {}): IssuerAccount {
  accountCounter += 1;
  const id = `${Date.now().toString(36)}${accountCounter}`;
  return {
    sub: `subject-${id}`,
    email: `google-${id}@example.com`,
    email_verified: true,
    name: `Google User ${accountCounter}`,
    picture: `https://pictures.example.com/${id}.jpg`,
    ...overrides,
  };
}

/**
 * A real OpenID Connect provider (oidc-provider) on a localhost port, for the Google sign-in
 * tests: the server's integration test and the browser test of the popup. One confidential
 * client (client_secret_post, PKCE required) is registered with the given redirect URIs. Its
 * login needs no form: the interaction signs `account` in at once and consent is implied, so a
 * browser or an HTTP client that follows redirects and keeps cookies goes straight through.
 */
export async function startOidcIssuer(options: TestIssuerOptions): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const clientId = 'furniture-marketplace';
  const clientSecret = randomBytes(24).toString('base64url');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

  const state: { account: IssuerAccount } = { account: newIssuerAccount(options.account) };
  const accounts = new Map<string, IssuerAccount>();
  const current = () => {
    accounts.set(state.account.sub, state.account);
    return state.account;
  };

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims: options.claimsInIdToken === false,
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = sub === state.account.sub ? current() : accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
    // Consent is implied: every sign-in is granted the scopes the app asks for.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { Grant } = ctx.oidc.provider;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return Grant.find(grantId);
      const grant = new Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };

  const provider = new Provider(issuer, configuration);
  let discoveryRequests = 0;
  provider.use(async (ctx, next) => {
    if (ctx.path === '/.well-known/openid-configuration') discoveryRequests += 1;
    await next();
  });
  // The login interaction signs the current account in without a form.
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && /^\/interaction\/[^/]+$/.test(ctx.path)) {
      const returnTo = await provider.interactionResult(
        ctx.req,
        ctx.res,
        { login: { accountId: current().sub } },
        { mergeWithLastSubmission: false },
      );
      ctx.redirect(returnTo);
      return;
    }
    await next();
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    get account() {
      return state.account;
    },
    set account(account: IssuerAccount) {
      state.account = account;
    },
    get discoveryRequests() {
      return discoveryRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
