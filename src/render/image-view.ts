import type { SiteImages } from '../images/process-images.js';
import type { ImageView } from '../../templates/view-model.js';

/** An image with the formats and widths the image stage made of it, or as it is when it made none. */
export function imageView(
  sets: SiteImages['sets'],
  src: string,
  alt: string,
  size?: { width: number; height: number },
): ImageView | undefined {
  const set = sets.get(src);
  if (set) return { ...set, alt };
  return size && { src, alt, ...size, sources: [] };
}
