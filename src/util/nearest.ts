/**
 * The known word nearest a mistyped one, for "Did you mean price?": the optimal string alignment
 * distance (Damerau-Levenshtein without repeated edits of one substring: an insertion, a
 * deletion, a substitution or a swap of two neighbours each count 1), ignoring case. A word of
 * three characters or fewer may be one edit away, a longer one two, and never as many edits as
 * it has characters: `pirce` finds `price`, `cardz` finds `cards`, `x` finds nothing. Commander
 * suggests commands and options the same way.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // Three rows of the table are enough: a swap looks two rows back.
  let before = new Array<number>(t.length + 1).fill(0);
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[t.length]!;
}

/** The candidate nearest `word` within the distance allowed (see above), or undefined; the first of equals wins. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const allowed = Math.min(word.length <= 3 ? 1 : 2, word.length - 1);
  let found: string | undefined;
  let distance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const d = editDistance(word, candidate);
    if (d <= allowed && d < distance) {
      found = candidate;
      distance = d;
    }
  }
  return found;
}
