import { Body, Controller, Get, HttpCode, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import { DELIVERY_NOT_FOUND, DeliveriesService } from './deliveries.service';
import {
  BulkReplayDto,
  BulkReplayResultDto,
  DeliveryDetailDto,
  DeliveryListQueryDto,
  DeliveryPageDto,
  DeliverySettingsDto,
} from './dto/deliveries.dto';

/** Company Admin → Delivery log of the company named by X-Company-Id: owners and admins (others: 403/404). */
@CompanyScoped('company admin', 'The company whose deliveries to read')
@Controller('company')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get('deliveries')
  @ApiOkResponse({ type: DeliveryPageDto, description: 'Newest first; nextCursor for older ones' })
  list(@CurrentScope() scope: CompanyScope, @Query() query: DeliveryListQueryDto): Promise<DeliveryPageDto> {
    return this.deliveries.list(scope, query);
  }

  @Post('deliveries/replay')
  @HttpCode(200)
  @ApiOkResponse({ type: BulkReplayResultDto })
  replayFailedSince(
    @CurrentScope() scope: CompanyScope,
    @Body() body: BulkReplayDto,
    @Ip() ip: string,
  ): Promise<BulkReplayResultDto> {
    return this.deliveries.replayFailedSince(scope, body, ip);
  }

  @Get('deliveries/:id')
  @ApiOkResponse({ type: DeliveryDetailDto, description: 'With the redacted bodies while kept' })
  get(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(DELIVERY_NOT_FOUND)) id: string,
  ): Promise<DeliveryDetailDto> {
    return this.deliveries.get(scope, id);
  }

  @Post('deliveries/:id/replay')
  @HttpCode(200)
  @ApiOkResponse({ type: DeliveryDetailDto, description: 'The delivery, now marked replayed' })
  replay(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(DELIVERY_NOT_FOUND)) id: string,
    @Ip() ip: string,
  ): Promise<DeliveryDetailDto> {
    return this.deliveries.replay(scope, id, ip);
  }

  @Get('delivery-settings')
  @ApiOkResponse({ type: DeliverySettingsDto })
  settings(@CurrentScope() scope: CompanyScope): Promise<DeliverySettingsDto> {
    return this.deliveries.settings(scope);
  }

  @Patch('delivery-settings')
  @ApiOkResponse({ type: DeliverySettingsDto })
  setSettings(
    @CurrentScope() scope: CompanyScope,
    @Body() body: DeliverySettingsDto,
    @Ip() ip: string,
  ): Promise<DeliverySettingsDto> {
    return this.deliveries.setSettings(scope, body.retentionDays, ip);
  }
}
