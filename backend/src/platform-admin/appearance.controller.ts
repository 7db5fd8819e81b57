import {
  applyDecorators,
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Ip,
  Post,
  Put,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ValidationFailedError } from '../common/domain-errors';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { MAX_IMAGE_BYTES } from '../files/files.service';
import {
  PlatformAppearanceDto,
  UpdateColorSettingsDto,
  UpdatePlatformSettingsDto,
  UploadedAssetDto,
} from './appearance.dto';
import { INVALID_FAVICON_MESSAGE, INVALID_LOGO_MESSAGE } from './appearance.images';
import type { AssetKind } from './appearance.repository';
import { AppearanceService } from './appearance.service';
import { SuperadminOnly } from './superadmin.guard';

/** The installation's look, for everyone: the sign-in page reads it before anyone signs in. */
@ApiTags('appearance')
@Controller('appearance')
export class AppearanceController {
  constructor(private readonly appearance: AppearanceService) {}

  @Public()
  @Get()
  // Read on every page load: revalidated each time, answered 304 by its ETag when nothing changed.
  @Header('Cache-Control', 'no-cache')
  @ApiOkResponse({ type: PlatformAppearanceDto })
  get(): Promise<PlatformAppearanceDto> {
    return this.appearance.get();
  }
}

/** An image upload route: one `file` field of at most MAX_IMAGE_BYTES, rate-limited, 201 with its URL. */
const AssetUpload = () =>
  applyDecorators(
    HttpCode(201),
    RateLimit('upload'),
    ApiConsumes('multipart/form-data'),
    ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } }),
    ApiOkResponse({ type: UploadedAssetDto }),
    UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } })),
  );

/** Platform Settings and Colour Settings: superadmins only. */
@ApiTags('platform admin')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin')
export class AdminAppearanceController {
  constructor(private readonly appearance: AppearanceService) {}

  @Put('settings')
  @ApiOkResponse({ type: PlatformAppearanceDto })
  updateSettings(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Body() body: UpdatePlatformSettingsDto,
  ): Promise<PlatformAppearanceDto> {
    return this.appearance.updateSettings({ user, ip }, body);
  }

  @Put('colors')
  @ApiOkResponse({ type: PlatformAppearanceDto })
  updateColors(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Body() body: UpdateColorSettingsDto,
  ): Promise<PlatformAppearanceDto> {
    return this.appearance.updateColors({ user, ip }, body);
  }

  /** Stores a logo (PNG, JPEG, WebP or GIF; re-encoded to PNG) and answers its address for the form. */
  @Post('settings/logo')
  @AssetUpload()
  uploadLogo(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<UploadedAssetDto> {
    return this.store(user, 'logo', file, INVALID_LOGO_MESSAGE);
  }

  /** Stores a favicon (.ico or .png; re-encoded to PNG) and answers its address for the form. */
  @Post('settings/favicon')
  @AssetUpload()
  uploadFavicon(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<UploadedAssetDto> {
    return this.store(user, 'favicon', file, INVALID_FAVICON_MESSAGE);
  }

  private store(
    user: AuthUser,
    kind: AssetKind,
    file: Express.Multer.File | undefined,
    missing: string,
  ): Promise<UploadedAssetDto> {
    if (!file?.buffer?.length) throw new ValidationFailedError(missing);
    return this.appearance.upload(user, kind, file.buffer);
  }
}
