/** The hand-written quantity format gives what Intl's British English format gives. */
import { describe, expect, it } from 'vitest';
import { formatQuantity } from '../../src/catalogue/catalogue-index.js';

describe('formatQuantity', () => {
  it('matches Intl.NumberFormat en-GB for whole numbers from 1 to a billion', () => {
    const intl = new Intl.NumberFormat('en-GB');
    const quantities = [1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 99_999, 100_000, 123_456, 999_999, 1_000_000, 1_000_000_000];
    // And a geometric run in between, whose digits vary.
    for (let q = 7; q < 1_000_000_000; q = q * 3 + 1) quantities.push(q);
    for (const quantity of quantities) expect(formatQuantity(quantity)).toBe(intl.format(quantity));
    expect(quantities.length).toBeGreaterThan(30);
  });
});
