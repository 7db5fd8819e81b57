import { Body, Controller, Get, Patch, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CompaniesService } from '../companies/companies.service';
import { CompanyMembershipDto } from '../companies/dto/company.dto';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { ValidationFailedError } from '../common/domain-errors';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { INVALID_IMAGE_MESSAGE, MAX_IMAGE_BYTES } from '../files/files.service';
import { UpdateProfileDto } from './dto/update-profile.dto';
import { UserDto } from './dto/user.dto';
import { UsersService } from './users.service';

class MeDto {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiProperty({ type: [CompanyMembershipDto] }) companies: CompanyMembershipDto[];
}

@ApiTags('profile')
@ApiBearerAuth()
@Controller('me')
export class ProfilesController {
  constructor(
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
  ) {}

  @Get()
  @ApiOkResponse({ type: MeDto })
  async me(@CurrentUser() user: AuthUser): Promise<MeDto> {
    const [profile, companies] = await Promise.all([
      this.users.profile(user.id),
      this.companies.listForUser(user.id),
    ]);
    return { user: profile, companies };
  }

  @Patch()
  @RateLimit('changeProfile')
  @ApiOkResponse({
    type: UserDto,
    description: 'A new email is pending (`pendingEmail`) until its link is followed',
  })
  update(@CurrentUser() user: AuthUser, @Body() body: UpdateProfileDto): Promise<UserDto> {
    return this.users.updateProfile(user.id, body);
  }

  @Post('avatar')
  @RateLimit('upload')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ type: UserDto })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } }))
  setAvatar(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<UserDto> {
    if (!file?.buffer?.length) throw new ValidationFailedError(INVALID_IMAGE_MESSAGE);
    return this.users.setAvatar(user.id, file.buffer);
  }
}
