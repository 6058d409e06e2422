/**
 * The id of dev's problem overlay. It starts with `__`, which neither a heading's slug
 * (headingSlug: lowercase letters, digits, hyphens) nor a section id (`^[a-z][a-z0-9-]*$`) nor a
 * WordPress id (prefixed `post-`) can: a page whose content took the overlay's id would be
 * taken for one showing the overlay, and reloaded for ever.
 */
export const OVERLAY_ID = '__storefront-dev-overlay';
