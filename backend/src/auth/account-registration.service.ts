import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CompaniesService } from '../companies/companies.service';
import { UsersService } from '../profiles/users.service';

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
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
  ) {}

  /** The new user's id; ConflictError(EMAIL_TAKEN) when the address already has an account. */
  createWithCompany(input: NewAccount): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const user = await this.users.create(manager, input);
      await this.companies.createWithOwner(user.id, input.companyName, manager);
      return user.id;
    });
  }
}
