import { NOTHING_WRITTEN } from '../errors/storefront-error.js';
import type { SiteImages } from '../images/process-images.js';
import type { ImagesMade, Routed } from './build-state.js';
import { startShareCards } from './cards.js';
import type { Stage } from './run-stages.js';

/**
 * Every image the posts show, made in its formats and widths (or taken from .cache/images/).
 * The share cards are drawn meanwhile: started here, waited for by the cards stages.
 */
export const imagesStage: Stage<Routed, ImagesMade> = { name: 'images', run: makeImages };

async function makeImages(state: Routed): Promise<ImagesMade> {
  const cardsPlanned = startShareCards(state);
  let images: SiteImages;
  try {
    images = await postImages(state);
  } catch (err) {
    // The images stage failed, and the build with it: let the drawing already begun finish first.
    await cardsPlanned.then((planned) => planned.files).catch(() => {});
    throw err;
  }
  return { ...state, images, cardsPlanned };
}

async function postImages(state: Routed): Promise<SiteImages> {
  const { options, problems } = state;
  // Loaded on demand, as the CMS client is: sharp and the HTTP client are needed only for images.
  const { processSiteImages } = await import('../images/process-images.js');
  const made = await processSiteImages(
    state.content.posts,
    {
      root: state.root,
      contentDir: state.contentDir,
      imageOrigins: state.imageOrigins,
      offline: options.cmsMode === 'offline',
      keptWithoutAsking: state.blog.source === 'cache',
      warn: state.log,
      timeoutMs: state.requests.timeoutMs,
      retry: state.requests.retry,
    },
    problems,
  );
  problems.throwIfAny(NOTHING_WRITTEN);
  return made;
}
