/**
 * Okapi BM25 over a small corpus (the past pipelines of `.specs/index.json`).
 *
 * Plain BM25 rather than MiniSearch: the corpus is rebuilt whenever index.json changes, the
 * scores must be reproducible to the decimal in tests, and the formula is a dozen lines —
 * MiniSearch's BM25+ with field boosts, prefix and fuzzy matching would rank less predictably
 * for no gain here.
 *
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *   score(d, q) = Σ_{t ∈ q} idf(t) · tf(t,d)·(k1 + 1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *
 * Query terms count once each (a repeated word in the request is not more important).
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
  return words.filter((w) => (w.length > 1 || /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u.test(w)) && !stopWords.has(w));
}

export class Bm25Index {
  private readonly ids: string[];
  private readonly lengths: number[];
  /** term → [document index, term frequency] pairs: a search only visits documents sharing a term. */
  private readonly postings = new Map<string, [number, number][]>();
  private readonly avgdl: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(documents: readonly { id: string; text: string }[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.ids = documents.map((d) => d.id);
    this.lengths = documents.map((d, i) => {
      const tf = new Map<string, number>();
      const terms = tokenize(d.text);
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        const list = this.postings.get(t);
        if (list) list.push([i, n]);
        else this.postings.set(t, [[i, n]]);
      }
      return terms.length;
    });
    const total = this.lengths.reduce((sum, n) => sum + n, 0);
    this.avgdl = this.ids.length ? total / this.ids.length : 0;
  }

  get size(): number {
    return this.ids.length;
  }

  idf(term: string): number {
    const n = this.postings.get(term)?.length ?? 0;
    return Math.log(1 + (this.ids.length - n + 0.5) / (n + 0.5));
  }

  /** Documents with a positive score, best first; ties by id so the order is stable. */
  search(query: string, limit = 5): Bm25Hit[] {
    const terms = [...new Set(tokenize(query))].filter((t) => this.postings.has(t));
    if (terms.length === 0 || this.avgdl === 0) return [];
    const scores = new Map<number, number>();
    for (const t of terms) {
      const idf = this.idf(t);
      for (const [doc, tf] of this.postings.get(t) ?? []) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.avgdl);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / (tf + norm));
      }
    }
    const hits = [...scores].filter(([, score]) => score > 0).map(([doc, score]) => ({ id: this.ids[doc], score }));
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.slice(0, limit);
  }
}
