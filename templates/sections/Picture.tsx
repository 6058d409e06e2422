import type { ImageView } from '../view-model.js';

/**
 * An image in the formats and widths the image stage made: AVIF and WebP sources, the source's
 * own format as the fallback, with its intrinsic size so the page does not shift as it loads.
 * `priority` marks the first image a visitor sees (fetched first, never lazily).
 */
export function Picture({
  image,
  sizes,
  priority = false,
  lazy = !priority,
  className,
  id,
}: {
  image: ImageView;
  sizes: string;
  priority?: boolean;
  lazy?: boolean;
  className?: string;
  id?: string;
}) {
  const own = image.sources.at(-1);
  const img = (
    <img
      id={id}
      className={className}
      src={image.src}
      srcSet={own?.srcset}
      sizes={own ? sizes : undefined}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
    />
  );
  if (image.sources.length < 2) return img;
  return (
    <picture>
      {image.sources.slice(0, -1).map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      {img}
    </picture>
  );
}
