import type { ShareCards } from '../images/share-cards.js';
import type { CardsDrawn, CardsPlanned, ImagesMade, PagesWritten, Routed } from './build-state.js';
import type { Stage } from './run-stages.js';

/**
 * Starts drawing the share cards of the non-post pages (their og:image; a post shows its own
 * image, or the blog's card), only those whose words have changed: the drawing goes on while the
 * images are made (the images stage calls this) and the pages render. The two cards stages wait
 * for it: for each page's card before rendering, for the files before writing them.
 */
export function startShareCards(state: Routed): Promise<ShareCards> {
  const { config, content } = state;
  // Loaded on demand, as the CMS client and the images' code are.
  const planned = import('../images/share-cards.js').then(({ makeShareCards }) =>
    makeShareCards(state.table.routes, {
      root: state.root,
      generatorRoot: state.generatorRoot,
      brandName: config.brandName,
      content,
    }),
  );
  planned.catch(() => {}); // a failure is reported by the cards stage, once
  return planned;
}

/** Each page's share card known (for its og:image), once the images are made. */
export const cardsPlannedStage: Stage<ImagesMade, CardsPlanned> = {
  name: 'cards',
  run: async (state) => ({ ...state, cards: await state.cardsPlanned }),
};

/** The share cards' drawing left after rendering counts as theirs, not the write stage's. */
export const cardsDrawnStage: Stage<PagesWritten, CardsDrawn> = {
  name: 'cards',
  run: async (state) => ({ ...state, cardFiles: await state.cards.files }),
};
