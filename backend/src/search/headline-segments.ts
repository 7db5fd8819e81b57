import type { SearchSnippetSegment } from '../contracts/search';

/** ts_headline's StartSel and StopSel: control characters, stripped from the text first, never HTML. */
export const MATCH_START = '\u0001';
export const MATCH_STOP = '\u0002';
/** Stand-ins for '<' and '&' in the text given to ts_headline (search.repository.ts). */
const LESS_THAN = '\u0003';
const AMPERSAND = '\u0004';

/**
 * Splits a headline marked with the sentinels into plain-text runs, so the client marks the matching
 * words itself and no message text is ever interpreted as markup.
 */
export function headlineSegments(headline: string): SearchSnippetSegment[] {
  const segments: SearchSnippetSegment[] = [];
  const push = (text: string, match: boolean) => {
    if (!text) return;
    text = text.replaceAll(LESS_THAN, '<').replaceAll(AMPERSAND, '&');
    const last = segments.at(-1);
    if (last && last.match === match) last.text += text;
    else segments.push({ text, match });
  };
  let rest = headline;
  while (rest) {
    const start = rest.indexOf(MATCH_START);
    if (start === -1) break;
    const stop = rest.indexOf(MATCH_STOP, start + 1);
    if (stop === -1) break;
    push(rest.slice(0, start), false);
    push(rest.slice(start + 1, stop), true);
    rest = rest.slice(stop + 1);
  }
  push(rest.replaceAll(MATCH_START, '').replaceAll(MATCH_STOP, ''), false);
  return segments;
}
