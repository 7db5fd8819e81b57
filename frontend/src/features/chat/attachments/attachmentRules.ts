import { currentMaxFileBytes } from '../../../lib/attachmentLimit';

/** The most files one message may carry (the server checks again). */
export const MAX_FILES_PER_MESSAGE = 10;
export { MAX_FILE_BYTES, setMaxFileBytes } from '../../../lib/attachmentLimit';

/** What the file input offers: the types an agent can use. */
export const ACCEPT =
  '.png,.jpg,.jpeg,.webp,.gif,.pdf,.txt,.md,.markdown,.csv,.json,.docx,.xlsx,.pptx,image/png,image/jpeg,image/webp,image/gif,application/pdf';

const EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'webp',
  'gif',
  'pdf',
  'txt',
  'text',
  'md',
  'markdown',
  'csv',
  'json',
  'docx',
  'xlsx',
  'pptx',
]);
/** Pasted images often have no useful name: their type says what they are. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Why a file cannot be attached, before it is sent (null: it may be). A first check by name and size;
 * the server decides from the bytes.
 */
export function refuseFile(file: { name: string; size: number; type: string }): string | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (!EXTENSIONS.has(extension) && !IMAGE_TYPES.has(file.type))
    return `"${file.name}" is not a supported file type. Attach images (PNG, JPEG, WebP, GIF), PDF, plain text, Markdown, CSV, JSON or Office documents (DOCX, XLSX, PPTX).`;
  if (file.size === 0) return `"${file.name}" is empty.`;
  const maxFileBytes = currentMaxFileBytes();
  if (file.size > maxFileBytes)
    return `"${file.name}" is too large: files can be at most ${Math.round(maxFileBytes / (1024 * 1024))} MB.`;
  return null;
}
