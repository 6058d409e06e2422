/**
 * The site's one browser script. Every page already works without it (native <details>, plain
 * links and a plain form POST); this only improves what is there. No framework; keep it small
 * (the budget is 2 KB gzipped, checked by the tests).
 */

const STICKY_OFFSET = 50;

function stickyHeader(): void {
  const header = document.querySelector<HTMLElement>('[data-header]');
  if (!header) return;
  const update = () => header.classList.toggle('is-stuck', window.scrollY >= STICKY_OFFSET);
  window.addEventListener('scroll', update, { passive: true });
  // Reading scrollY lays the page out: at the next frame, that is the layout the frame needs
  // anyway, rather than a second one inside this script's task.
  requestAnimationFrame(update);
}

function mobileMenu(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const header = document.querySelector<HTMLElement>('[data-header]');
  if (!button || !header) return;
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    header.classList.toggle('menu-open', open);
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (event) => {
    // An open Services menu inside takes the first Escape (see megaMenu).
    if (event.key === 'Escape' && !event.defaultPrevented && button.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      button.focus();
    }
  });
}

function megaMenu(): void {
  const menu = document.querySelector<HTMLDetailsElement>('[data-mega]');
  if (!menu) return;
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menu.open) {
      event.preventDefault();
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });
  document.addEventListener('click', (event) => {
    if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  });
}

/**
 * One FAQ item open at a time, for browsers without exclusive <details name>; the answer a link
 * names (#platform-rules, from another page too) is opened, as not every browser does it.
 */
function faq(): void {
  for (const group of document.querySelectorAll<HTMLElement>('[data-faq]')) {
    const items = [...group.querySelectorAll('details')];
    for (const item of items) {
      item.addEventListener('toggle', () => {
        if (item.open) for (const other of items) if (other !== item) other.open = false;
      });
    }
  }
  const openTarget = () => {
    const target = location.hash.length > 1 ? document.getElementById(location.hash.slice(1)) : null;
    const answer = target?.closest('details');
    if (answer && !answer.open) {
      answer.open = true;
      target!.scrollIntoView();
    }
  };
  openTarget();
  addEventListener('hashchange', openTarget);
}

/** The home picker as WAI-ARIA tabs: arrow keys, Home and End move between them. */
function picker(): void {
  const root = document.querySelector<HTMLElement>('[data-picker]');
  if (!root) return;
  const tabs = [...root.querySelectorAll<HTMLAnchorElement>('[data-tab]')];
  const list = root.querySelector<HTMLElement>('.picker-tabs')!;
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', 'Choose a service');
  for (const el of list.querySelectorAll('ul, li, .picker-group')) el.setAttribute('role', 'presentation');
  for (const el of list.querySelectorAll('.picker-platform')) el.setAttribute('aria-hidden', 'true');
  const panelOf = (tab: HTMLElement) => document.getElementById(`pick-${tab.dataset.tab}`)!;
  const select = (tab: HTMLAnchorElement, focus: boolean) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      panelOf(other).hidden = !selected;
    }
    if (focus) tab.focus();
  };
  for (const tab of tabs) {
    const panel = panelOf(tab);
    tab.setAttribute('role', 'tab');
    tab.removeAttribute('aria-current');
    tab.setAttribute('aria-controls', panel.id);
    // Named by its panel's heading, not a copy of its text: one text, whatever changes it.
    tab.setAttribute('aria-labelledby', `${panel.id}-heading`);
    tab.id = `tab-${tab.dataset.tab}`;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
    tab.addEventListener('click', (event) => {
      event.preventDefault();
      select(tab, false);
    });
    tab.addEventListener('keydown', (event) => {
      const i = tabs.indexOf(tab);
      const next = {
        ArrowRight: i + 1,
        ArrowDown: i + 1,
        ArrowLeft: i - 1,
        ArrowUp: i - 1,
        Home: 0,
        End: tabs.length - 1,
      }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length]!, true);
    });
  }
  const targeted = () => tabs.find((t) => `#${panelOf(t).id}` === location.hash);
  select(targeted() ?? tabs.find((t) => t.dataset.tab === root.dataset.default) ?? tabs[0]!, false);
  // A link to a panel (the home hero's platform tiles) chooses its tab before the browser goes to
  // it (it cannot go to a hidden panel), also when the address already names that panel.
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href^="#pick-"]:not([data-tab])')) {
    link.addEventListener('click', () => {
      const tab = tabs.find((t) => `#${panelOf(t).id}` === link.hash);
      if (tab) select(tab, false);
    });
  }
  addEventListener('hashchange', () => {
    const tab = targeted();
    if (tab) select(tab, false);
  });
  root.dataset.tabsReady = '';
}

function footerYear(): void {
  for (const el of document.querySelectorAll('[data-year]')) el.textContent = String(new Date().getFullYear());
}

stickyHeader();
megaMenu();
mobileMenu();
faq();
picker();
footerYear();
