import type { AttachmentKind } from './stored-file.entity';

/** The types an agent can use, decided from the bytes (file-type), never from the name or the browser. */
const BY_MAGIC: Readonly<Record<string, AttachmentKind>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'application/pdf': 'file',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'file',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'file',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'file',
};

/** Text formats have no magic bytes: valid UTF-8 with one of these extensions. */
const TEXT_BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
};

export const ACCEPTED_TYPES_SENTENCE =
  'Attach images (PNG, JPEG, WebP, GIF), PDF, plain text, Markdown, CSV, JSON or Office documents (DOCX, XLSX, PPTX).';

/** What the first bytes say a file is, or why it is refused. */
export type TypeDecision =
  | { mimeType: string; kind: AttachmentKind; text: false }
  /** To be confirmed over the whole file: valid UTF-8 with no NUL byte. */
  | { mimeType: string; kind: 'file'; text: true }
  | { refused: string };

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** A name fit to store and to show: no path, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const base = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!base) return 'file';
  if (base.length <= 255) return base;
  const ext = extensionOf(base);
  return ext && ext.length < 20 ? `${base.slice(0, 254 - ext.length)}.${ext}` : base.slice(0, 255);
}

/**
 * Decides a file's type from what file-type detected in its first bytes (undefined: no known signature)
 * and its name's extension (for text only).
 */
export function decideAttachmentType(name: string, detected: { mime: string } | undefined): TypeDecision {
  if (detected) {
    const kind = BY_MAGIC[detected.mime];
    if (kind) return { mimeType: detected.mime, kind, text: false };
    if (detected.mime === 'application/zip')
      return { refused: `"${name}" is a ZIP archive, which cannot be attached. ${ACCEPTED_TYPES_SENTENCE}` };
    return {
      refused: `"${name}" is not a supported file type (its content is ${detected.mime}). ${ACCEPTED_TYPES_SENTENCE}`,
    };
  }
  const textType = TEXT_BY_EXTENSION[extensionOf(name)];
  if (textType) return { mimeType: textType, kind: 'file', text: true };
  return { refused: `"${name}" is not a supported file type. ${ACCEPTED_TYPES_SENTENCE}` };
}

/** Checks text a piece at a time: valid UTF-8 across piece boundaries, and no NUL byte (binary data). */
export class Utf8Check {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private ok = true;

  push(piece: Buffer): void {
    if (!this.ok) return;
    if (piece.includes(0)) {
      this.ok = false;
      return;
    }
    try {
      this.decoder.decode(piece, { stream: true });
    } catch {
      this.ok = false;
    }
  }

  /** True when everything pushed was text. */
  end(): boolean {
    if (!this.ok) return false;
    try {
      this.decoder.decode();
      return true;
    } catch {
      return false;
    }
  }
}
