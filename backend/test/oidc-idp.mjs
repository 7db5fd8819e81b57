// An enterprise-style OpenID provider for tests (oidc-provider), in its own process: code flow only,
// PKCE required, `email` + `email_verified` claims in the ID token, its own in-memory accounts (keyed by
// email; `sub` apart, so a test can change it). No login or consent pages: the interaction signs in the
// account named by `login_hint` (as a provider would after its own login) and grants the scopes.
// IDP_CONFIG (JSON): { clientId, clientSecret, redirectUri, accounts: { [email]: { sub, email_verified } },
// issuerHost?: the host name the provider calls itself (another one than it is reached by: wrong issuer) }.
// Prints {"port": N} once listening. POST /_test/accounts (JSON) replaces the accounts; POST
// /_test/rotate-keys signs from then on with a new key, the old one gone from its key set (abrupt rotation).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const config = JSON.parse(process.env.IDP_CONFIG ?? '{}');
let accounts = config.accounts ?? {};

const server = createServer();
await new Promise((resolve) => server.listen(Number(process.env.IDP_PORT ?? 0), '127.0.0.1', resolve));
const { port } = server.address();
const issuer = `http://${config.issuerHost ?? '127.0.0.1'}:${port}`;

/** A fresh RS256 signing key, as a private JWK with its own `kid`. */
function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

const makeProvider = (key) =>
  new Provider(issuer, {
    jwks: { keys: [key] },
    clients: [
      {
        client_id: config.clientId,
        client_secret: config.clientSecret,
        redirect_uris: [config.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: false,
    cookies: { keys: ['test-idp-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // The account id is the provider's `sub` (oidc-provider puts it in tokens as such).
    findAccount: (_ctx, sub) => {
      const found = Object.entries(accounts).find(([, account]) => account.sub === sub);
      if (!found) return undefined;
      const [email, account] = found;
      const { name, given_name, family_name } = account;
      return {
        accountId: sub,
        claims: () => ({ sub, email, email_verified: account.email_verified, name, given_name, family_name }),
      };
    },
  });

let provider;
let callback;
function useKey(key) {
  provider = makeProvider(key);
  provider.on('server_error', (_ctx, error) => console.error('idp server_error', error));
  callback = provider.callback();
}
useKey(signingKey());
server.on('request', async (req, res) => {
  try {
    if (req.method === 'POST' && req.url === '/_test/accounts') {
      let body = '';
      for await (const chunk of req) body += chunk;
      accounts = JSON.parse(body);
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && req.url === '/_test/rotate-keys') {
      useKey(signingKey());
      res.writeHead(204).end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        const hint = details.params.login_hint;
        if (!accounts[hint]) {
          // The person is not (or no longer) at this provider: it ends the flow with an error.
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'unknown user',
          });
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: accounts[hint].sub } });
        return;
      }
      const grant = new provider.Grant({
        accountId: details.session.accountId,
        clientId: details.params.client_id,
      });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    callback(req, res);
  } catch (error) {
    console.error('idp', error);
    res.writeHead(500).end(String(error));
  }
});

process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
