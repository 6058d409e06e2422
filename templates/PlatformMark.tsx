/**
 * A platform's mark: a simple glyph of our own drawing on the platform's colour (the tile is
 * styled by .mark-{slug} in styles.css, so no gradient id is repeated in a page). Decorative: the
 * platform's name is always written beside it. A platform without a glyph of its own (one the
 * catalogue adds later) gets the generic tick on the accent colour.
 */
import { base, CheckIcon } from './Icons.js';

const glyph = base(24);

/** A camera outline: a rounded square, its lens and its flash. */
function Instagram() {
  return (
    <svg {...glyph}>
      <rect x="4" y="4" width="16" height="16" rx="5" />
      <circle cx="12" cy="12" r="3.5" />
      <circle cx="16.7" cy="7.3" r="0.4" fill="currentColor" />
    </svg>
  );
}

/** A quaver, echoed in the platform's two accent colours. */
function TikTok() {
  const note = 'M13.5 4.5v10a3.5 3.5 0 1 1-3.5-3.5M13.5 4.5c.4 2.3 2 3.8 4.5 4';
  return (
    <svg {...glyph} strokeWidth={2.2}>
      <path d={note} stroke="#25f4ee" transform="translate(-0.9 -0.6)" />
      <path d={note} stroke="#fe2c55" transform="translate(0.9 0.6)" />
      <path d={note} />
    </svg>
  );
}

/** A play button: a white screen with a triangle cut in the tile's red. */
function YouTube() {
  return (
    <svg {...glyph} stroke="none">
      <rect x="3" y="6" width="18" height="12" rx="4" fill="currentColor" />
      <path d="M10.2 9.2v5.6l4.8-2.8z" fill="#c4141c" />
    </svg>
  );
}

const glyphs: Record<string, () => React.JSX.Element> = { instagram: Instagram, tiktok: TikTok, youtube: YouTube };

export function PlatformMark({ platform, size = 'md' }: { platform: string; size?: 'sm' | 'md' | 'lg' }) {
  const Glyph = glyphs[platform];
  return (
    <span className={`mark mark-${size} ${Glyph ? `mark-${platform}` : 'mark-other'}`} aria-hidden="true">
      {Glyph ? <Glyph /> : <CheckIcon />}
    </span>
  );
}
