/** The only hosts whose iframes CMS posts may embed (also allowed by the CSP's frame-src). */
export const VIDEO_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'youtube.com', 'player.vimeo.com'];
