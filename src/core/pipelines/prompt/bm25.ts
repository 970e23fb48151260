import MiniSearch from 'minisearch';

/**
 * BM25 ranking of a small corpus (the past pipelines of `.specs/index.json`), by MiniSearch.
 *
 * MiniSearch scores each matched term with BM25+; with its lower bound δ set to 0 that is the
 * Okapi formula idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d|/avgdl)), idf(t) =
 * ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5)), where MiniSearch measures |d| in distinct terms and
 * multiplies a document's sum by the number of query terms it matched (documents matching
 * more of the request rank higher). Exact terms only — no prefix or fuzzy matching — so the
 * ranking is predictable; our tokenizer drops stop words and keeps CJK words.
 */
export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

const stopWords = new Set(
  'a an and are as at be but by can do does for from has have how i if in into is it its not of on or so that the their then there these this to was we what when which will with you your should would could must need needs add use using make'.split(
    ' ',
  ),
);

/** Lower-case words of letters or digits (any script), without stop words and one-letter words. */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter(
    (w) => (w.length > 1 || /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u.test(w)) && !stopWords.has(w),
  );
}

export class Bm25Index {
  private readonly search_: MiniSearch<{ id: string; text: string }>;
  readonly size: number;

  constructor(documents: readonly { id: string; text: string }[], options: Bm25Options = {}) {
    this.search_ = new MiniSearch<{ id: string; text: string }>({
      fields: ['text'],
      tokenize,
      // tokenize already lower-cases and filters.
      processTerm: (term) => term,
      searchOptions: {
        combineWith: 'OR',
        prefix: false,
        fuzzy: false,
        bm25: { k: options.k1 ?? 1.2, b: options.b ?? 0.75, d: 0 },
      },
    });
    this.search_.addAll(documents.map((d) => ({ id: d.id, text: d.text })));
    this.size = documents.length;
  }

  /** Documents with a positive score, best first; ties by id so the order is stable. */
  search(query: string, limit = 5): Bm25Hit[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    const hits = this.search_
      .search(terms.join(' '))
      .filter((r) => r.score > 0)
      .map((r) => ({ id: String(r.id), score: r.score }));
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.slice(0, limit);
  }
}
