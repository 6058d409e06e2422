/**
 * How many columns a grid of `count` items takes, at most `max`: every row full, or the last one
 * holding at least two items (centred by .grid in styles.css), so no item sits alone under rows
 * of three or more. Among those layouts: the fewest rows, then full rows, then the fullest last
 * row. 5 → 3 + 2, 7 → 4 + 3, 9 → 5 + 4 (at most 5) or 3 × 3 (at most 4), 10 → 4 + 4 + 2.
 */
export function columnsFor(count: number, max: number): number {
  let best = 1;
  let bestScore = Infinity;
  for (let cols = Math.max(1, Math.min(max, count)); cols >= 1; cols--) {
    const rest = count % cols;
    if (cols >= 3 && rest === 1) continue;
    const score = Math.ceil(count / cols) + (rest ? 0.5 + (0.1 * (cols - rest)) / cols : 0);
    if (score < bestScore) {
      best = cols;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The class names of a grid of `count` items: its columns on a phone, from 40rem and from 64rem, each
 * at most the given maximum.
 */
export function gridClass(count: number, [phone, tablet, desktop]: readonly [number, number, number]): string {
  return `grid sm-${columnsFor(count, phone)} md-${columnsFor(count, tablet)} lg-${columnsFor(count, desktop)}`;
}

/** Cards of text (cards, steps, guarantees, cross-sells): one column on a phone, up to three, then four. */
export const CARD_COLUMNS = [1, 3, 4] as const;
/** Package tiles: two on a phone, up to four, then five. */
export const PACKAGE_COLUMNS = [2, 4, 5] as const;
