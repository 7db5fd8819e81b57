/** A run of a search result's snippet: `match` runs are the words the query found (shown marked). */
export interface SearchSnippetSegment {
  text: string;
  match: boolean;
}

/** One message found by GET /api/search. */
export interface SearchResult {
  messageId: string;
  /** The message's cursor: the chat opens at it (GET /api/chats/:id/messages?before=…). */
  seq: string;
  chatId: string;
  chatTitle: string;
  chatArchived: boolean;
  agentId: string;
  senderType: 'user' | 'agent';
  isVoiceMessage: boolean;
  timestamp: string;
  /** The snippet around the matching words; plain text, never HTML. */
  segments: SearchSnippetSegment[];
}

export interface SearchPage {
  results: SearchResult[];
  /** Pass back as `cursor` for the next page; null when there is none. */
  nextCursor: string | null;
}

export interface SearchRequest {
  q: string;
  cursor?: string;
  limit?: number;
}

export type ChatExportFormat = 'md' | 'json';
