import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { CompanyScoped } from '../companies/company-member.guard';
import { SearchPageDto, SearchQuery } from './dto/search.dto';
import { SearchService } from './search.service';

@CompanyScoped('search')
@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  /** The caller's own messages in the current company that match `q`, best first, highlighted. */
  @Get('search')
  @ApiOkResponse({ type: SearchPageDto })
  find(@CurrentScope() scope: CompanyScope, @Query() query: SearchQuery): Promise<SearchPageDto> {
    return this.search.search(scope, query);
  }
}
