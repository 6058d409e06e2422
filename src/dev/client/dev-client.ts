/**
 * The script `storefront dev` adds to every page it serves (never to a build): it listens to
 * the dev server's events, brings the page up to date after a rebuild, and shows the problems
 * of a failed build over the page. Problem text comes from the content, so it is only ever set
 * as text, never as HTML. Styles are set through the CSSOM, which the site's CSP allows.
 */
import morphdomExports from 'morphdom';
import { problemPlace } from '../../errors/problem-place.js';
import type { Problem } from '../../errors/storefront-error.js';
import { OVERLAY_ID } from './overlay-id.js';

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
function assets(page: Element): string {
  return [...page.querySelectorAll('link[rel="stylesheet"], script[src]')]
    .map((node) => node.getAttribute('href') ?? node.getAttribute('src'))
    .filter((address) => !address?.startsWith('/__storefront/'))
    .join(' ');
}

/**
 * The open page as the server sent it, before the site's script changed it (the picker's tabs,
 * the header's classes) and the reader did (an answer opened): the base of the next update.
 * The server puts this script before the site's, both deferred, so it runs first: the page is
 * parsed whole, and nothing has changed it yet.
 */
let served = document.documentElement.cloneNode(true) as HTMLElement;

/** Whether two trees have the same nodes in the same places: they differ in texts and attributes only. */
function sameShape(a: Node, b: Node): boolean {
  if (a.nodeName !== b.nodeName || a.childNodes.length !== b.childNodes.length) return false;
  for (let i = 0; i < a.childNodes.length; i++) if (!sameShape(a.childNodes[i]!, b.childNodes[i]!)) return false;
  return true;
}

/** Each element of the open page with the element it was served as: the same place in the same tree. */
function servedAs(shown: Element, sent: Element, pairs = new Map<Element, Element>()): Map<Element, Element> {
  pairs.set(shown, sent);
  for (let i = 0; i < shown.children.length; i++) servedAs(shown.children[i]!, sent.children[i]!, pairs);
  return pairs;
}

/** What the reader typed or chose in a form control stays, as the rebuilt page's control has its defaults. */
function keepInput(shown: Element, wanted: Element): void {
  if (shown instanceof HTMLInputElement && wanted instanceof HTMLInputElement) {
    wanted.value = shown.value;
    wanted.checked = shown.checked;
  } else if (shown instanceof HTMLTextAreaElement && wanted instanceof HTMLTextAreaElement) {
    wanted.value = shown.value;
  }
}

/**
 * The rebuilt page put in place of the open one, changing only what the rebuild changed: a
 * three-way update of the page as served, the page as it is now and the page as rebuilt. An
 * element the rebuild left as it was is not touched; an attribute the rebuild left as it was
 * keeps its value in the open page. So a price edit shows without a reload (no new request for
 * the stylesheet, the script or the images), and the scroll position, an open answer and the
 * picker's chosen tab stay. morphdom does the walk (Eleventy's dev server uses it), matching
 * elements by place only, as ids may be the site script's. The page is reloaded instead when the
 * rebuild (or anything since the page loaded) added, removed or moved an element or a text
 * (places would no longer match), changed its stylesheet or script, or made it gone or a
 * redirect: the site's script runs once, on the page it loaded with.
 */
async function showBuild(build: string): Promise<void> {
  const response = await fetch(location.href, { cache: 'no-store' });
  const rebuilt = new DOMParser().parseFromString(await response.text(), 'text/html').documentElement;
  document.getElementById(OVERLAY_ID)?.remove(); // never served: the update would not touch it
  const shown = document.documentElement;
  if (
    !response.ok ||
    response.redirected ||
    assets(rebuilt) !== assets(shown) ||
    !sameShape(served, rebuilt) ||
    !sameShape(served, shown)
  ) {
    location.reload();
    return;
  }
  const was = servedAs(shown, served);
  // morphdom moves nodes out of the tree it is given: it gets a copy, and the rebuilt page is kept.
  morphdom(shown, rebuilt.cloneNode(true), {
    getNodeKey: () => undefined,
    onBeforeElUpdated: (live, wanted) => {
      const before = was.get(live);
      if (!before) return true;
      if (before.isEqualNode(wanted)) return false;
      for (const name of new Set([...live.getAttributeNames(), ...before.getAttributeNames()])) {
        if (before.getAttribute(name) !== wanted.getAttribute(name)) continue; // the rebuild changed it
        const own = live.getAttribute(name);
        if (own === null) wanted.removeAttribute(name);
        else wanted.setAttribute(name, own);
      }
      keepInput(live, wanted);
      return true;
    },
  });
  served = rebuilt;
  shownBuild = build;
}

/** One update at a time, in the order the builds came. */
let updating = Promise.resolve();

/** The latest state the server sent: an update shows it, however many came meanwhile. */
let latest: DevState | undefined;

const events = new EventSource('/__storefront/events');
events.addEventListener('state', (event) => {
  latest = JSON.parse((event as MessageEvent<string>).data) as DevState;
  // Says that the page is listening (tests wait for it before they change a file).
  document.documentElement.dataset.storefrontDev = 'live';
  updating = updating
    .then(async () => {
      if (latest?.problems) showOverlay(latest);
      else if (latest && (latest.build !== shownBuild || document.getElementById(OVERLAY_ID)))
        await showBuild(latest.build);
    })
    // Whatever went wrong, the page as built is one reload away; later updates still run.
    .catch(() => location.reload());
});
