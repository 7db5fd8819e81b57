/** A run of a search result's snippet: `match` runs are the words the query found (shown marked). */
export interface SearchSnippetSegment {
  text: string;
  match: boolean;
}

/** A file of a found message whose name matches the search (the message may be found by it alone). */
export interface SearchResultFile {
  id: string;
  name: string;
  mimeType: string;
  kind: 'image' | 'file';
}

/** One message found by GET /api/search (by its text or its files' names). */
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
  /** The message's files whose names match, in their order; empty when only its text does. */
  files: SearchResultFile[];
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

/** Markdown or JSON (files as signed links), or a ZIP with both and the files themselves. */
export type ChatExportFormat = 'md' | 'json' | 'zip';
