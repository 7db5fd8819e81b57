/** The installation's default MAX_ATTACHMENT_MB, until the server has said its own (setMaxFileBytes). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

let maxFileBytes = MAX_FILE_BYTES;

/** The server's MAX_ATTACHMENT_MB, in bytes, as the chat screen's opening data gives it. */
export function setMaxFileBytes(bytes: number): void {
  if (Number.isSafeInteger(bytes) && bytes > 0) maxFileBytes = bytes;
}

/** The largest file the message box lets through to an upload. */
export function currentMaxFileBytes(): number {
  return maxFileBytes;
}
