/** The hand-written date format gives what Intl's British English format gives, for every day of many years. */
import { describe, expect, it } from 'vitest';
import { formatDay } from '../../src/render/render-routes.js';

describe('formatDay', () => {
  it('matches Intl.DateTimeFormat en-GB (day, long month, year, UTC) from 1999 to 2031', () => {
    const intl = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    let checked = 0;
    for (let t = Date.UTC(1999, 0, 1); t < Date.UTC(2032, 0, 1); t += 86_400_000 + 3_600_000) {
      const date = new Date(t);
      expect(formatDay(date)).toBe(intl.format(date));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(11_000);
  });
});
