import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type {
  SearchPage,
  SearchRequest,
  SearchResult,
  SearchResultFile,
  SearchSnippetSegment,
} from '../../contracts/search';
import { PageLimit } from '../../common/paging';

export const MAX_SEARCH_LENGTH = 200;
export const SEARCH_PAGE_SIZE = 20;
export const EMPTY_SEARCH = 'Please enter something to search for.';
export const SEARCH_TOO_LONG = `Search text is too long (${MAX_SEARCH_LENGTH} characters at most).`;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class SearchQuery implements SearchRequest {
  @ApiProperty({ description: 'Words to find (web search syntax: "a phrase", -word, or)', maxLength: 200 })
  @Transform(trim)
  @IsString({ message: EMPTY_SEARCH })
  @IsNotEmpty({ message: EMPTY_SEARCH })
  @MaxLength(MAX_SEARCH_LENGTH, { message: SEARCH_TOO_LONG })
  q: string;

  @ApiPropertyOptional({ description: "The previous page's nextCursor" })
  @OptionalNotNull()
  @IsString({ message: 'cursor must be the nextCursor of a previous page' })
  @MaxLength(300, { message: 'cursor must be the nextCursor of a previous page' })
  cursor?: string;

  @PageLimit(50, SEARCH_PAGE_SIZE)
  limit?: number;
}

export class SearchSnippetSegmentDto implements SearchSnippetSegment {
  @ApiProperty() text: string;
  @ApiProperty({ description: 'A word the query found' }) match: boolean;
}

export class SearchResultFileDto implements SearchResultFile {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() mimeType: string;
  @ApiProperty({ enum: ['image', 'file'] }) kind: 'image' | 'file';
}

export class SearchResultDto implements SearchResult {
  @ApiProperty() messageId: string;
  @ApiProperty() seq: string;
  @ApiProperty() chatId: string;
  @ApiProperty() chatTitle: string;
  @ApiProperty() chatArchived: boolean;
  @ApiProperty() agentId: string;
  @ApiProperty({ enum: ['user', 'agent'] }) senderType: 'user' | 'agent';
  @ApiProperty() isVoiceMessage: boolean;
  @ApiProperty() timestamp: string;
  @ApiProperty({ type: [SearchSnippetSegmentDto] }) segments: SearchSnippetSegmentDto[];
  @ApiProperty({ type: [SearchResultFileDto], description: "The message's files whose names match" })
  files: SearchResultFileDto[];
}

export class SearchPageDto implements SearchPage {
  @ApiProperty({ type: [SearchResultDto] }) results: SearchResultDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}
