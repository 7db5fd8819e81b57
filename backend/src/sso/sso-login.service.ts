import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { AuditService } from '../audit/audit.service';
import { AuthService, type SignedIn } from '../auth/auth.service';
import { MembersService } from '../company-admin/members.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { splitFullName, UsersService } from '../profiles/users.service';
import { ClientSecretBox } from './client-secret-box';
import { CompanyDomainsRepository } from './company-domains.repository';
import { CompanySsoRepository, type SsoConfigRow } from './company-sso.repository';
import { ExternalIdentitiesRepository } from './external-identities.repository';
import { guardedFetch } from './guarded-fetch';
import { domainOfEmail } from './sso-validation';

/** Why a single sign-on was refused: the `?error=` the sign-in page turns into a readable message. */
export type SsoRefusal =
  | 'sso_unavailable'
  | 'sso_provider_failed'
  | 'sso_state'
  | 'sso_code_rejected'
  | 'sso_email_unverified'
  | 'sso_identity_changed'
  | 'sso_account_unverified'
  | 'sso_no_access'
  | 'sso_account_disabled';

export class SsoRefusedError extends Error {
  constructor(
    readonly reason: SsoRefusal,
    detail?: string,
  ) {
    super(detail ?? reason);
  }
}

/** What the browser carries between start and callback (sealed in a short-lived cookie). */
export interface PendingSsoLogin {
  companyId: string;
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

const PENDING_TTL_MS = 10 * 60_000;
/** Discovery is cached per company configuration; the provider's keys live in it (openid-client). */
const DISCOVERY_TTL_MS = 60 * 60_000;
const PENDING_AAD = 'sso-login-state';

interface CachedProvider {
  key: string;
  at: number;
  config: Promise<oidc.Configuration>;
}

/**
 * Sign-in through a company's OpenID Connect provider: authorization code with PKCE (S256), `state` and
 * `nonce`, through openid-client. The account is found by the provider's `iss` + `sub`; an account is
 * linked or made from the email only when the provider says it is verified AND its domain is one this
 * company proved (so a company's provider cannot vouch for addresses of domains it does not own), and an
 * existing local account is linked only when its own address was verified, as Google sign-in does.
 */
@Injectable()
export class SsoLoginService {
  private readonly logger = new Logger('SSO');
  private readonly providers = new Map<string, CachedProvider>();
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: Database,
    private readonly sso: CompanySsoRepository,
    private readonly domains: CompanyDomainsRepository,
    private readonly identities: ExternalIdentitiesRepository,
    private readonly secrets: ClientSecretBox,
    private readonly users: UsersService,
    private readonly members: MembersService,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
  }

  get redirectUri(): string {
    return `${this.config.appOrigin}/api/auth/sso/callback`;
  }

  /** The company whose proved domain the address is at, when it offers single sign-on. */
  async companyFor(email: string): Promise<SsoConfigRow | null> {
    const domain = domainOfEmail(email);
    if (!domain) return null;
    const proved = await this.domains.findProved(domain);
    if (!proved) return null;
    const config = await this.sso.find(proved.companyId);
    return config?.enabled && config.clientSecretSealed ? config : null;
  }

  /** Where to send the browser, and what it must bring back. */
  async start(email: string): Promise<{ url: string; pending: string }> {
    const company = await this.companyFor(email);
    if (!company) throw new SsoRefusedError('sso_unavailable');
    const provider = await this.provider(company);
    const verifier = oidc.randomPKCECodeVerifier();
    const pending: PendingSsoLogin = {
      companyId: company.companyId,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier,
      expiresAt: Date.now() + PENDING_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
      login_hint: email,
    });
    return { url: url.href, pending: this.secrets.seal(PENDING_AAD, JSON.stringify(pending)) };
  }

  /** The provider's answer: the checks, then the account, then a session made through this company. */
  async callback(
    currentUrl: URL,
    sealedPending: string | undefined,
    client: { userAgent?: string; ip?: string },
  ): Promise<SignedIn> {
    const pending = this.openPending(sealedPending);
    if (!pending || currentUrl.searchParams.get('state') !== pending.state)
      throw new SsoRefusedError('sso_state');
    const company = await this.sso.find(pending.companyId);
    if (!company?.enabled || !company.clientSecretSealed) throw new SsoRefusedError('sso_unavailable');
    const provider = await this.provider(company);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(provider, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      this.logger.warn(`code exchange refused for company ${company.companyId}: ${(error as Error).message}`);
      throw new SsoRefusedError('sso_code_rejected', (error as Error).message);
    }
    if (!claims) throw new SsoRefusedError('sso_code_rejected', 'no ID token');
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email || claims.email_verified !== true) {
      await this.auth.recordFailedSsoSignIn(email || `sso:${claims.sub}`, client.ip, 'email_not_verified');
      throw new SsoRefusedError('sso_email_unverified');
    }
    const userId = await this.accountFor(
      company,
      { issuer: claims.iss, subject: claims.sub, email, name: nameOf(claims, email) },
      client,
    );
    return this.auth.startSsoSession(userId, company.companyId, client.userAgent, client.ip);
  }

  /**
   * The account the identity names: linked by `iss` + `sub`; else linked or made from a verified email of
   * a domain this company proved. The person joins the company as User when it lets its domains join.
   */
  private async accountFor(
    company: SsoConfigRow,
    identity: {
      issuer: string;
      subject: string;
      email: string;
      name: { firstName: string; lastName: string };
    },
    client: { ip?: string },
  ): Promise<string> {
    const refuse = async (reason: SsoRefusal, auditReason: string): Promise<never> => {
      await this.auth.recordFailedSsoSignIn(identity.email, client.ip, auditReason);
      throw new SsoRefusedError(reason);
    };
    const domain = domainOfEmail(identity.email);
    const proved = domain ? await this.domains.findProved(domain) : null;
    const domainIsCompany = proved?.companyId === company.companyId;

    const linked = await this.identities.findBySubject(identity.issuer, identity.subject);
    let userId = linked?.userId ?? null;
    if (!userId) {
      if (!domainIsCompany) return refuse('sso_no_access', 'domain_not_proved');
      const byEmail = await this.users.findByEmail(identity.email);
      if (byEmail) {
        const existing = await this.identities.findForUser(byEmail.id, identity.issuer);
        if (existing && existing.subject !== identity.subject)
          return refuse('sso_identity_changed', 'identity_changed');
        if (!byEmail.emailVerifiedAt) {
          // As with Google: the address's owner is at the provider, but the password may be someone
          // else's. A reset link proves the address and ends every session; then SSO links.
          await this.auth.forgotPassword(identity.email);
          return refuse('sso_account_unverified', 'account_unverified');
        }
        userId = byEmail.id;
      } else if (!company.autoJoin) {
        return refuse('sso_no_access', 'not_a_member');
      }
    }

    const joined = await this.database.transaction(async (tx) => {
      let id = userId;
      if (!id) {
        const created = await this.users.create(tx, {
          email: identity.email,
          passwordHash: null,
          firstName: identity.name.firstName,
          lastName: identity.name.lastName,
          emailVerifiedAt: new Date(),
        });
        id = created.id;
      }
      if (!linked)
        await this.identities.insert(tx, {
          userId: id,
          companyId: company.companyId,
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email,
        });
      let added = false;
      if (company.autoJoin && domainIsCompany) {
        added = await this.members.autoJoin(tx, company.companyId, id);
        if (added)
          await this.audit.record(tx, {
            action: 'member.auto_joined',
            actor: { id },
            target: { type: 'user', id },
            company: { id: company.companyId },
            ip: client.ip,
            details: { role: 'user', domain },
          });
      }
      return { id, added };
    });
    // The company's admins see the new member appear (Users page), as with an accepted invitation.
    if (joined.added) await this.members.announceJoined(company.companyId, joined.id);
    return joined.id;
  }

  private openPending(sealed: string | undefined): PendingSsoLogin | null {
    if (!sealed) return null;
    const json = this.secrets.open(PENDING_AAD, sealed);
    if (!json) return null;
    try {
      const pending = JSON.parse(json) as PendingSsoLogin;
      return pending.expiresAt > Date.now() ? pending : null;
    } catch {
      return null;
    }
  }

  /**
   * The provider's discovered configuration, cached per company and configuration (a changed issuer,
   * client or secret is discovered again). openid-client keeps the provider's key set in it, fetched on
   * first use, again after five minutes, and when an ID token names a key it does not have (rotation) once
   * the set it has is a minute old.
   */
  private provider(company: SsoConfigRow): Promise<oidc.Configuration> {
    const secret = company.clientSecretSealed
      ? this.secrets.open(company.companyId, company.clientSecretSealed)
      : null;
    if (!secret)
      return Promise.reject(new SsoRefusedError('sso_unavailable', 'client secret cannot be opened'));
    const key = createHash('sha256')
      .update(`${company.issuer}\n${company.clientId}\n${secret}`)
      .digest('hex');
    const cached = this.providers.get(company.companyId);
    if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const issuer = new URL(company.issuer);
    const insecure = issuer.protocol === 'http:';
    const config = oidc
      .discovery(
        issuer,
        company.clientId,
        { redirect_uris: [this.redirectUri] },
        oidc.ClientSecretBasic(secret),
        {
          [oidc.customFetch]: guardedFetch(this.allowedHosts, this.config.webhookTimeoutMs),
          // ID tokens' signatures are checked against the provider's key set too (not only the TLS of the
          // token endpoint's answer): the key set is cached with the configuration, fetched again after
          // five minutes, or for a key it does not have once it is a minute old.
          // http issuers were accepted on save only for loopback or allow-listed hosts.
          execute: insecure
            ? [oidc.enableNonRepudiationChecks, oidc.allowInsecureRequests]
            : [oidc.enableNonRepudiationChecks],
          timeout: Math.ceil(this.config.webhookTimeoutMs / 1000),
        },
      )
      .catch((error: unknown) => {
        this.providers.delete(company.companyId);
        this.logger.warn(`discovery failed for ${company.issuer}: ${(error as Error).message}`);
        throw new SsoRefusedError('sso_provider_failed', (error as Error).message);
      });
    this.providers.set(company.companyId, { key, at: Date.now(), config });
    return config;
  }

  /** Forgets a company's cached provider (its settings changed or SSO was turned off). */
  forget(companyId: string): void {
    this.providers.delete(companyId);
  }
}

/**
 * A new account's name, from the provider's `profile` claims: `given_name` and `family_name`, else `name`
 * split as the registration form's Full Name is, else the address's local part.
 */
function nameOf(claims: oidc.IDToken, email: string): { firstName: string; lastName: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 150) : '');
  const given = text(claims.given_name);
  const family = text(claims.family_name);
  if (given) return { firstName: given, lastName: family };
  const full = text(claims.name);
  if (full) return splitFullName(full);
  return { firstName: email.split('@')[0], lastName: family };
}
