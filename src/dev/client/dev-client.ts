/**
 * The script `storefront dev` adds to every page it serves (never to a build): it listens to
 * the dev server's events, brings the page up to date after a rebuild, and shows the problems
 * of a failed build over the page. Problem text comes from the content, so it is only ever set
 * as text, never as HTML. Styles are set through the CSSOM, which the site's CSP allows.
 */
import morphdomExports from 'morphdom';
import { problemPlace } from '../../errors/problem-place.js';
import type { Problem } from '../../errors/storefront-error.js';

interface DevState {
  /** The last good build: this run of dev and the build's number in it, e.g. `3f9a01c2.4`. */
  build: string;
  /** The problems of the latest build, when it failed. */
  problems: Problem[] | null;
  /** Said once after the problems. */
  footer?: string;
}

/**
 * The bundled default export is morphdom itself; TypeScript, reading the package as CommonJS
 * (NodeNext), types it as the module object whose `default` it is.
 */
const morphdom = morphdomExports as unknown as typeof morphdomExports.default;

const OVERLAY_ID = 'storefront-dev-overlay';
/** The build this page shows: first the one it was served from (the server writes it into this script's URL). */
let shownBuild = new URL((document.currentScript as HTMLScriptElement).src).searchParams.get('build');

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text: string,
  style: Partial<CSSStyleDeclaration> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  Object.assign(node.style, style);
  return node;
}

function showOverlay(state: DevState): void {
  document.getElementById(OVERLAY_ID)?.remove();
  const overlay = element('div', '', {
    position: 'fixed',
    inset: '0',
    zIndex: '2147483647',
    overflow: 'auto',
    background: 'rgba(17, 24, 39, 0.94)',
    color: '#f9fafb',
    font: '15px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    padding: '32px',
  });
  overlay.id = OVERLAY_ID;
  overlay.setAttribute('role', 'alert');
  const count = state.problems!.length;
  overlay.append(
    element(
      'h1',
      count === 1 ? 'The site could not be rebuilt: 1 problem' : `The site could not be rebuilt: ${count} problems`,
      {
        font: 'bold 20px/1.3 system-ui, sans-serif',
        margin: '0 0 8px',
        color: '#fca5a5',
      },
    ),
    element('p', 'Fix it and save the file: this page updates by itself.', {
      margin: '0 0 24px',
      color: '#d1d5db',
    }),
  );
  for (const problem of state.problems!) {
    const item = element('section', '', {
      margin: '0 0 20px',
      padding: '12px 16px',
      borderLeft: '4px solid #f87171',
      background: 'rgba(255,255,255,0.05)',
    });
    const heading = element('p', '', { margin: '0 0 4px' });
    heading.append(
      element('strong', problem.code, { color: '#fca5a5' }),
      document.createTextNode(`  ${problemPlace(problem)}`),
    );
    heading.dataset.devProblemFile = problem.file ?? '';
    item.append(heading, element('p', problem.message, { margin: '0 0 4px' }));
    if (problem.hint) item.append(element('p', `hint: ${problem.hint}`, { margin: '0', color: '#93c5fd' }));
    overlay.append(item);
  }
  if (state.footer) overlay.append(element('p', state.footer, { color: '#d1d5db' }));
  document.body.append(overlay);
}

/** The page's stylesheets and scripts, but this one: their addresses change with their contents. */
function assets(page: Document): string {
  return [...page.querySelectorAll('link[rel="stylesheet"], script[src]')]
    .map((node) => node.getAttribute('href') ?? node.getAttribute('src'))
    .filter((address) => !address?.startsWith('/__storefront/'))
    .join(' ');
}

/**
 * The page as rebuilt, put in place of the open one. Only what differs is changed (morphdom, as
 * Eleventy's dev server does), so a price edit shows without a reload: no new request for the
 * stylesheet, the script or the images, and the scroll position and the menus and answers the
 * reader opened stay. A page whose stylesheet or script changed, or that is gone or now redirects, is
 * reloaded: the site's script runs once, on the elements the page loaded with.
 */
async function showBuild(build: string): Promise<void> {
  const response = await fetch(location.href, { cache: 'no-store' });
  const rebuilt = new DOMParser().parseFromString(await response.text(), 'text/html');
  if (!response.ok || response.redirected || assets(rebuilt) !== assets(document)) {
    location.reload();
    return;
  }
  morphdom(document.documentElement, rebuilt.documentElement, {
    // A menu or an answer the reader opened stays open: the rebuilt page has them all closed.
    onBeforeElUpdated: (shown, next) => {
      if (shown instanceof HTMLDetailsElement && next instanceof HTMLDetailsElement) next.open = shown.open;
      return true;
    },
  });
  document.documentElement.dataset.storefrontDev = 'live'; // the rebuilt page's root does not say it
  shownBuild = build;
}

/** One update at a time, in the order the builds came. */
let updating = Promise.resolve();

const events = new EventSource('/__storefront/events');
events.addEventListener('state', (event) => {
  const state = JSON.parse((event as MessageEvent<string>).data) as DevState;
  // Says that the page is listening (tests wait for it before they change a file).
  document.documentElement.dataset.storefrontDev = 'live';
  updating = updating.then(() => {
    if (state.problems) showOverlay(state);
    else if (state.build !== shownBuild || document.getElementById(OVERLAY_ID))
      return showBuild(state.build).catch(() => location.reload());
  });
});
