import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import removeMarkdown from 'remove-markdown';

dayjs.extend(relativeTime);

/** Spec: the last-message preview is 30 characters. */
export const PREVIEW_LENGTH = 30;
export const NO_MESSAGES_PREVIEW = 'No messages yet';

/**
 * The chat row's preview: the last message as plain text (Markdown marks removed) on one line, cut to
 * 30 characters followed by '...'.
 */
export function formatPreview(lastMessage: string | null | undefined): string {
  const plain = lastMessage ? removeMarkdown(lastMessage, { useImgAltText: true, gfm: true }) : '';
  const text = plain.replace(/\s+/g, ' ').trim();
  if (!text) return NO_MESSAGES_PREVIEW;
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}...` : text;
}

/** A message's time: relative, with the word 'ago' removed ('5 minutes', 'a few seconds'). */
export function formatMessageTime(timestamp: string, now: dayjs.ConfigType = undefined): string {
  const time = dayjs(timestamp);
  const reference = dayjs(now);
  // A clock slightly ahead of the server's must not read as 'in a few seconds'.
  return (time.isAfter(reference) ? reference : time).from(reference, true);
}

/** The chat row's short relative time: 'now', '5m', '3h', '2d', '4w', then the date. */
export function formatShortRelative(timestamp: string | null | undefined, now: dayjs.ConfigType = undefined) {
  if (!timestamp) return '';
  const time = dayjs(timestamp);
  const reference = dayjs(now);
  const minutes = Math.max(0, reference.diff(time, 'minute'));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  if (days < 35) return `${Math.floor(days / 7)}w`;
  return time.year() === reference.year() ? time.format('MMM D') : time.format('MMM D, YYYY');
}

/** A byte count for people: '512 B', '340 KB', '12.5 MB', '2 GB'. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** Company Details' file storage: 'used / limit', or 'used (no limit)'. */
export function formatStoredBytes(quotas: {
  storedBytesUsed: number;
  storedBytesLimit: number | null;
}): string {
  const used = formatBytes(quotas.storedBytesUsed);
  return quotas.storedBytesLimit === null
    ? `${used} (no limit)`
    : `${used} / ${formatBytes(quotas.storedBytesLimit)}`;
}

/** A message quota's use: '12 / 100', or '12 (no limit)'. */
export function formatMessageUse(used: number, limit: number | null): string {
  return limit === null ? `${used} (no limit)` : `${used} / ${limit}`;
}
