/**
 * The package prices of the specification's section 9, typed from the spec (not from the
 * catalogue), so the test catches a catalogue that drifts from what visitors should see.
 * quantity → price in GBP.
 */
export const specPrices: Record<string, [number, number][]> = {
  '/buy-instagram-followers': [
    [100, 1.89],
    [250, 3],
    [500, 5.49],
    [1000, 10],
    [2500, 23],
    [5000, 39],
    [10000, 64],
    [25000, 160],
  ],
  '/buy-instagram-likes': [
    [100, 1],
    [250, 2],
    [500, 4],
    [1000, 7.5],
    [2500, 13.99],
    [5000, 23.99],
    [10000, 48.99],
    [25000, 115],
  ],
  '/buy-instagram-views': [
    [100, 1.79],
    [250, 2.39],
    [500, 4],
    [1000, 8],
    [2500, 13],
    [5000, 23],
    [10000, 43],
    [25000, 89.99],
  ],
  '/buy-tiktok-followers': [
    [100, 2],
    [500, 5.99],
    [1000, 15],
    [5000, 59],
  ],
  '/buy-tiktok-likes': [
    [100, 1.49],
    [250, 3],
    [500, 5],
    [1000, 9],
    [2500, 21],
    [5000, 39],
    [10000, 69],
    [25000, 119],
  ],
  '/buy-tiktok-views': [
    [500, 2.49],
    [1000, 4.49],
    [5000, 20],
    [10000, 35],
  ],
  '/buy-youtube-subscribers': [
    [100, 4.99],
    [250, 12.99],
    [500, 19.99],
    [1000, 39.99],
    [2000, 75],
    [3000, 115],
    [4000, 149],
    [5000, 175],
  ],
  '/buy-youtube-likes': [
    [50, 1.49],
    [100, 1.49],
    [250, 3],
    [500, 14],
    [1000, 27],
    [2500, 63],
    [5000, 169.99],
    [10000, 269.99],
  ],
  '/buy-youtube-views': [
    [2500, 8.99],
    [5000, 17],
    [10000, 30],
    [20000, 52],
    [50000, 105],
    [100000, 189],
    [150000, 270],
    [200000, 349],
  ],
  '/buy-youtube-watch-hours': [
    [1000, 34],
    [2000, 60],
    [3000, 85],
    [4000, 105],
  ],
};

/** The specification's ten service pages, in its order: the pages of the prices above. */
export const specServicePaths = Object.keys(specPrices);

export const faqCounts: Record<string, number> = {
  '/buy-youtube-subscribers': 11,
  '/buy-youtube-likes': 11,
  '/buy-youtube-views': 11,
  '/buy-youtube-watch-hours': 17,
};
