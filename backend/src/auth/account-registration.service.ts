import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { CompaniesService } from '../companies/companies.service';
import { UsersService } from '../profiles/users.service';
import { Database } from '../database/database';

export interface NewAccount {
  email: string;
  /** Already hashed: a request that hashes up front costs the same whether or not the address is taken. */
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  companyName: string;
  googleSub?: string;
  emailVerifiedAt?: Date;
}

/** A new account and the company it owns, in one transaction: all or nothing. */
@Injectable()
export class AccountRegistrationService {
  constructor(
    private readonly database: Database,
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    private readonly audit: AuditService,
  ) {}

  /**
   * The new user's id; ConflictError(EMAIL_TAKEN) when the address already has an account. `ip`: the
   * registering client's address, for the audit log (unknown when a job creates the account).
   */
  createWithCompany(input: NewAccount, ip?: string): Promise<string> {
    return this.database.transaction(async (tx) => {
      const user = await this.users.create(tx, input);
      const company = await this.companies.createWithOwner(user.id, input.companyName, tx);
      await this.audit.record(tx, {
        action: 'company.created',
        actor: { id: user.id, label: user.email },
        target: { type: 'company', id: company.id, label: company.name },
        company: { id: company.id, name: company.name },
        ip,
        details: { via: 'registration' },
      });
      return user.id;
    });
  }
}
