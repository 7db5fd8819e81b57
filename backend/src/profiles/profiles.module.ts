import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module';
import { FilesModule } from '../files/files.module';
import { ProfilesController } from './profiles.controller';
import { ProfilesRepository } from './profiles.repository';
import { UsersService } from './users.service';

@Module({
  imports: [FilesModule, CompaniesModule],
  controllers: [ProfilesController],
  providers: [UsersService, ProfilesRepository],
  exports: [UsersService],
})
export class ProfilesModule {}
