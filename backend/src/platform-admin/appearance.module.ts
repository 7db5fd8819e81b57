import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { AdminAppearanceController, AppearanceController } from './appearance.controller';
import { AppearanceRepository } from './appearance.repository';
import { AppearanceService } from './appearance.service';
import { SuperadminGuard } from './superadmin.guard';

/** Platform Settings and Colour Settings: the public appearance and its superadmin editing. */
@Module({
  imports: [FilesModule],
  controllers: [AppearanceController, AdminAppearanceController],
  providers: [AppearanceService, AppearanceRepository, SuperadminGuard],
  // The socket's catch-up compares the appearance a page loaded with the one saved now.
  exports: [AppearanceService],
})
export class AppearanceModule {}
