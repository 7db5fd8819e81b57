import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CompaniesModule } from '../companies/companies.module';
import { FilesModule } from '../files/files.module';
import { ProfilesController } from './profiles.controller';
import { UserEntity } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), FilesModule, CompaniesModule],
  controllers: [ProfilesController],
  providers: [UsersService],
  exports: [UsersService],
})
export class ProfilesModule {}
