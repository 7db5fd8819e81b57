// The search query, apart from the repository so that the bench runs the very same text against
// PostgreSQL as its floor (bench/phases/search.mjs loads it from the built app).

/**
 * The indexed text (migration 1763920000000's expression) for ts_headline, without the sentinels, and
 * with '<' and '&' stood in for by chr(3) and chr(4): the parser would take `<b>` or `&amp;` for markup
 * and drop it from the snippet (headlineSegments puts them back).
 */
const INDEXED_TEXT = `translate(left(m.content, 100000), '<&' || chr(1) || chr(2), chr(3) || chr(4))`;
const HEADLINE_OPTIONS = `'StartSel=' || chr(1) || ', StopSel=' || chr(2) ||
  ', MaxWords=30, MinWords=10, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "'`;

/**
 * Relevance (ts_rank, normalised by the length of the message or file name; `b.rank`) times a recency boost between 1 (old) and 2
 * (now), halved after a week. Scored against a fixed `asOf` (the first page's time) so that every page
 * of one search sorts the same way and the keyset cursor stays valid. All in float8: `extract` computes
 * in numeric, which made ranking 100,000 hits about three times slower.
 */
const SCORE = `b.rank *
  (1 + 1 / (1 + greatest(date_part('epoch', $4::timestamptz - m.created_at), 0) / 604800.0::float8))`;

/**
 * The query for attachments' names, made as their index is (migration 1763990000001): punctuation a
 * space, so "report.pdf" or "q3-report" find "Q3_Report.final.pdf". A leading "-" (not) and quotes
 * (a phrase) keep their meaning.
 */
const NAME_QUERY = `websearch_to_tsquery('simple', regexp_replace(
  regexp_replace($1, '[^[:alnum:][:space:]"-]+', ' ', 'g'), '([[:alnum:]])-+', '\\1 ', 'g'))`;

/**
 * Owner-scoped: only messages of the caller's own chats in the current company, found by their text or
 * by the names of their files (each through its GIN index). Ranks every hit (a message found both ways
 * by its better rank), keeps one page by keyset, and builds headlines and the matching files' list for
 * that page only.
 */
export const SEARCH_SQL = `WITH q AS (SELECT websearch_to_tsquery('simple', $1) AS query, ${NAME_QUERY} AS name_query),
 found AS (
   SELECT m.id, ts_rank(m.search_vector, q.query, 1)::float8 AS rank
   FROM q, messages m JOIN chats c ON c.id = m.chat_id
   WHERE c.user_id = $2 AND c.company_id = $3 AND m.search_vector @@ q.query
   UNION ALL
   SELECT f.message_id, ts_rank(f.name_vector, q.name_query, 1)::float8
   FROM q, files f JOIN chats c ON c.id = f.chat_id
   WHERE c.user_id = $2 AND c.company_id = $3 AND f.purpose = 'attachment' AND f.message_id IS NOT NULL
     AND f.name_vector @@ q.name_query
 ), best AS (
   SELECT id, max(rank) AS rank FROM found GROUP BY id
 ), hits AS (
   SELECT m.id, m.seq, m.chat_id, m.sender_type, m.is_voice_message, m.created_at,
     c.title, c.is_archived, c.agent_id, ${SCORE} AS score
   FROM best b JOIN messages m ON m.id = b.id JOIN chats c ON c.id = m.chat_id
 ), page AS (
   SELECT * FROM hits
   WHERE $5::float8 IS NULL OR (hits.score, hits.seq) < ($5::float8, $6::bigint)
   ORDER BY hits.score DESC, hits.seq DESC LIMIT $7
 )
 SELECT p.id, p.seq::text AS seq, p.chat_id, p.title, p.is_archived, p.agent_id, p.sender_type,
   p.is_voice_message, p.created_at, p.score,
   ts_headline('simple', ${INDEXED_TEXT}, q.query, ${HEADLINE_OPTIONS}) AS headline,
   (SELECT COALESCE(json_agg(json_build_object('id', f.id, 'name', f.name, 'mimeType', f.content_type,
      'kind', f.kind) ORDER BY f.position), '[]'::json)
    FROM files f WHERE f.message_id = p.id AND f.name_vector @@ q.name_query) AS files
 FROM page p JOIN messages m ON m.id = p.id, q
 ORDER BY p.score DESC, p.seq DESC`;
