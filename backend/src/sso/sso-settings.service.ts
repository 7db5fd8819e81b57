import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { SessionsService, sha256 } from '../auth/sessions.service';
import type { CompanyScope } from '../common/company-scope';
import { ConflictError, ForbiddenError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { CompaniesService } from '../companies/companies.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  SSO_DOMAIN_PROOF_TTL_HOURS,
  type AddSsoDomainRequest,
  type SsoDomainView,
  type SsoSettingsView,
  type UpdateSsoSettingsRequest,
  type VerifySsoDomainResponse,
} from '../contracts/sso';
import { Database } from '../database/database';
import { MailService } from '../mail/mail.service';
import { ClientSecretBox } from './client-secret-box';
import { CompanyDomainsRepository, type DomainRow } from './company-domains.repository';
import { CompanySsoRepository } from './company-sso.repository';
import { checkIssuerUrl, domainOfEmail, INVALID_DOMAIN, normalizeDomain } from './sso-validation';

export const SSO_NOT_ON = 'This company does not use single sign-on';
export const SSO_TURNED_OFF = 'Single sign-on was turned off for your company. Please sign in again.';
export const ONLY_OWNER_SSO = 'Only an owner can change single sign-on.';
export const SSO_DOMAIN_NOT_FOUND = 'Domain not found';
export const DOMAIN_TAKEN = 'This domain is already used for single sign-on by another company';
export const PROOF_ADDRESS_OUTSIDE = 'The address that receives the link must be at the domain itself';
export const CLIENT_SECRET_REQUIRED = 'Please enter the client secret your identity provider gave you';
export const DOMAIN_LINK_INVALID =
  'This link is invalid or has expired. Ask the company owner to send a new one.';

/** Company Admin → Settings → Single sign-on: the company's owners only (admins get 403, like role changes). */
@Injectable()
export class SsoSettingsService {
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: Database,
    private readonly sso: CompanySsoRepository,
    private readonly domains: CompanyDomainsRepository,
    private readonly secrets: ClientSecretBox,
    private readonly companies: CompaniesService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly sessions: SessionsService,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
  }

  async settings(scope: CompanyScope): Promise<SsoSettingsView> {
    requireOwner(scope);
    const [config, domains] = await Promise.all([
      this.sso.find(scope.companyId),
      this.domains.listForCompany(scope.companyId),
    ]);
    return {
      enabled: config?.enabled ?? false,
      issuer: config?.issuer ?? null,
      clientId: config?.clientId ?? null,
      hasClientSecret: !!config?.clientSecretSealed,
      requireSso: config?.requireSso ?? false,
      autoJoin: config?.autoJoin ?? false,
      domains: domains.map(toDomainView),
      redirectUri: `${this.config.appOrigin}/api/auth/sso/callback`,
    };
  }

  async update(scope: CompanyScope, input: UpdateSsoSettingsRequest, ip: string): Promise<SsoSettingsView> {
    requireOwner(scope);
    const checked = checkIssuerUrl(input.issuer, this.allowedHosts);
    if ('problem' in checked) throw new ValidationFailedError(checked.problem);
    const secret = input.clientSecret?.trim() || null;
    const { ended, refusalChanged } = await this.database.transaction(async (tx) => {
      const before = await this.sso.find(scope.companyId, tx);
      if (!secret && !before?.clientSecretSealed) throw new ValidationFailedError(CLIENT_SECRET_REQUIRED);
      const after = {
        companyId: scope.companyId,
        enabled: input.enabled,
        issuer: checked.issuer,
        clientId: input.clientId.trim(),
        clientSecretSealed: secret ? this.secrets.seal(scope.companyId, secret) : null,
        requireSso: input.requireSso,
        autoJoin: input.autoJoin,
      };
      await this.sso.upsert(tx, after);
      // Which settings changed, never their values' secrets.
      const changed = (['enabled', 'issuer', 'clientId', 'requireSso', 'autoJoin'] as const).filter(
        (key) => !before || before[key] !== after[key],
      );
      if (secret) changed.push('clientSecret' as never);
      await this.audit.record(tx, {
        action: 'sso.updated',
        actor: { id: scope.userId },
        target: { type: 'company', id: scope.companyId },
        company: { id: scope.companyId },
        ip,
        details: { changed, enabled: after.enabled, requireSso: after.requireSso, autoJoin: after.autoJoin },
      });
      return {
        // Turned off, or another provider: the sessions the old one made end (it alone vouched for them).
        ended:
          before?.enabled && (!after.enabled || before.issuer !== after.issuer)
            ? await this.sessions.revokeMadeThroughSso(tx, scope.companyId)
            : [],
        refusalChanged: refusesOthers(before) !== refusesOthers(after),
      };
    });
    this.sessions.endSessions(ended, SSO_TURNED_OFF);
    // Open sockets follow at once: sessions not made through the provider leave the company's rooms (or
    // join them again), and their screens switch.
    if (refusalChanged) await this.sessions.refreshCompanyAccess(scope.companyId, { notify: true });
    return this.settings(scope);
  }

  /** Claims a domain and mails a proof link to an address at it (postmaster@ unless the owner names one). */
  async claimDomain(scope: CompanyScope, input: AddSsoDomainRequest, ip: string): Promise<SsoDomainView> {
    requireOwner(scope);
    const domain = normalizeDomain(input.domain);
    if (!domain) throw new ValidationFailedError(INVALID_DOMAIN);
    const email = (input.email?.trim() || `postmaster@${domain}`).toLowerCase();
    if (domainOfEmail(email) !== domain) throw new ValidationFailedError(PROOF_ADDRESS_OUTSIDE);
    const company = await this.companies.getForUser(scope.userId, scope.companyId);
    const token = randomBytes(32).toString('base64url');
    const row = await this.database.transaction(async (tx) => {
      const proved = await this.domains.findProved(domain, tx);
      if (proved && proved.companyId !== scope.companyId) throw new ConflictError(DOMAIN_TAKEN);
      const claimed = await this.domains.claim(tx, {
        companyId: scope.companyId,
        domain,
        email,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + SSO_DOMAIN_PROOF_TTL_HOURS * 3600_000),
      });
      if (!claimed.verifiedAt)
        await this.audit.record(tx, {
          action: 'sso.domain_claimed',
          actor: { id: scope.userId },
          target: { type: 'company', id: scope.companyId },
          company: { id: scope.companyId },
          ip,
          details: { domain, sentTo: email },
        });
      return claimed;
    });
    if (!row.verifiedAt)
      await this.mail.sendDomainProof(email, {
        domain,
        companyName: company.name,
        link: `${this.config.appOrigin}/verify-domain?token=${encodeURIComponent(token)}`,
        hours: SSO_DOMAIN_PROOF_TTL_HOURS,
      });
    return toDomainView(row);
  }

  async removeDomain(scope: CompanyScope, domainId: string, ip: string): Promise<void> {
    requireOwner(scope);
    await this.database.transaction(async (tx) => {
      const removed = await this.domains.remove(tx, scope.companyId, domainId);
      if (!removed) throw new NotFoundError(SSO_DOMAIN_NOT_FOUND);
      await this.audit.record(tx, {
        action: 'sso.domain_removed',
        actor: { id: scope.userId },
        target: { type: 'company', id: scope.companyId },
        company: { id: scope.companyId },
        ip,
        details: { domain: removed.domain },
      });
    });
  }

  /**
   * A platform administrator turns a company's single sign-on off (audited); its sessions end as when
   * the owner does. False when it was not on.
   */
  async disableByPlatform(actorId: string, companyId: string, ip: string): Promise<boolean> {
    const ended = await this.database.transaction(async (tx) => {
      if (!(await this.sso.disable(tx, companyId))) return null;
      await this.audit.record(tx, {
        action: 'sso.disabled',
        actor: { id: actorId },
        target: { type: 'company', id: companyId },
        company: { id: companyId },
        ip,
        details: { by: 'platform' },
      });
      return this.sessions.revokeMadeThroughSso(tx, companyId);
    });
    if (!ended) return false;
    this.sessions.endSessions(ended, SSO_TURNED_OFF);
    await this.sessions.refreshCompanyAccess(companyId, { notify: true });
    return true;
  }

  /**
   * Follows a mailed proof link: the claim becomes proved and the token is used up. Whoever follows it
   * (signed in or not) proved they read mail at the domain; another company that proved the domain
   * meanwhile keeps it (409).
   */
  async verifyDomain(token: string, ip: string): Promise<VerifySsoDomainResponse> {
    return this.database.transaction(async (tx) => {
      const claim = await this.domains.lockByProof(tx, sha256(token));
      if (!claim) throw new ValidationFailedError(DOMAIN_LINK_INVALID);
      const proved = await this.domains.findProved(claim.domain, tx);
      if (proved) throw new ConflictError(DOMAIN_TAKEN);
      await this.domains.markProved(tx, claim.id);
      await this.audit.record(tx, {
        action: 'sso.domain_verified',
        actor: { id: null, label: claim.proofEmail },
        target: { type: 'company', id: claim.companyId },
        company: { id: claim.companyId, name: claim.companyName },
        ip,
        details: { domain: claim.domain },
      });
      return { domain: claim.domain, companyName: claim.companyName };
    });
  }
}

/** Single sign-on decides who may enter the company: like making owners, it is the owners' call. */
function requireOwner(scope: CompanyScope): void {
  if (scope.role !== 'owner') throw new ForbiddenError(ONLY_OWNER_SSO);
}

function toDomainView(row: DomainRow): SsoDomainView {
  return {
    id: row.id,
    domain: row.domain,
    verifiedAt: row.verifiedAt ? new Date(row.verifiedAt).toISOString() : null,
    proofSentTo: row.verifiedAt ? null : row.proofEmail,
  };
}

/** Whether the settings refuse the company's data to sessions not made through its provider. */
function refusesOthers(config: { enabled: boolean; requireSso: boolean } | null | undefined): boolean {
  return !!config?.enabled && config.requireSso;
}
