/**
 * The site frame's behaviours in plain script (no framework on static pages):
 * the site's stylesheet after first paint, translucent header, the drawer, the hidden admin
 * triggers, the connectivity banner, the page-view beacon and the suppressed install prompt.
 * Each part is independent and does nothing when its element is absent.
 */
import { sendPageView } from './analytics.ts';

const SCROLL_THRESHOLD_PX = 100; // public-site.md §9 "header scroll threshold 100 px"
const TRIPLE_CLICK_GAP_MS = 1000; // admin-dashboard.md §2 "each click within 1 second"
const ADMIN_PATH = '/admin';

/**
 * Static pages paint from their inline critical CSS (src/server/critical-css.ts), which holds every
 * rule their HTML can use. The site's whole stylesheet is added once the page has loaded, so it
 * never competes with the first screen: it serves what the HTML does not name and is in the cache
 * for the pages with islands, which link it. It takes the template's place, the link's place in
 * the build, so the cascade keeps its order against the page's own styles.
 */
function loadDeferredStylesheets() {
  const add = () => {
    for (const template of document.querySelectorAll<HTMLTemplateElement>('template[data-deferred-stylesheet]')) {
      template.replaceWith(template.content);
    }
  };
  if (document.readyState === 'complete') add();
  else window.addEventListener('load', add, { once: true });
}

function watchScroll() {
  const root = document.documentElement;
  let ticking = false;
  const update = () => {
    root.toggleAttribute('data-scrolled', window.scrollY > SCROLL_THRESHOLD_PX);
    ticking = false;
  };
  window.addEventListener(
    'scroll',
    () => {
      if (!ticking) {
        ticking = true;
        requestAnimationFrame(update);
      }
    },
    { passive: true },
  );
  update();
}

function setUpDrawer() {
  const drawer = document.getElementById('nav-drawer');
  const opener = document.querySelector<HTMLButtonElement>('[data-drawer-open]');
  if (!(drawer instanceof HTMLDialogElement) || !opener) return;
  const setExpanded = (open: boolean) => opener.setAttribute('aria-expanded', String(open));
  opener.addEventListener('click', () => {
    drawer.showModal();
    setExpanded(true);
  });
  // showModal() makes the rest of the page inert (focus stays inside) and Escape closes it.
  drawer.addEventListener('close', () => {
    setExpanded(false);
    opener.focus();
  });
  drawer.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    // A chosen link, the close button, or a click on the backdrop closes the drawer.
    if (target === drawer || target.closest('a, [data-drawer-close]')) drawer.close();
  });
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

/**
 * A modal <dialog> makes the page inert, but Tab can still leave for the browser's own UI. In an
 * open dialog marked `data-keep-tab` (the drawer, the dashboard's edit dialogs, the tracking page's
 * viewers), Tab wraps from the last focusable element to the first and Shift+Tab back, so keyboard
 * focus cycles inside. One listener on the document serves every page: the islands carry no copy.
 * A handler inside the dialog that used the key (preventDefault) keeps it.
 */
function keepTabInsideDialogs() {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || event.defaultPrevented || !(event.target instanceof Element)) return;
    const dialog = event.target.closest('dialog[open][data-keep-tab]');
    if (!dialog) return;
    const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

function setUpAdminTriggers() {
  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey && event.shiftKey && (event.key === 'A' || event.key === 'a')) {
      event.preventDefault();
      window.location.assign(ADMIN_PATH);
    }
  });
  const logo = document.querySelector('[data-admin-trigger]');
  if (!logo) return;
  let clicks = 0;
  let lastClick = 0;
  logo.addEventListener('click', (event) => {
    const now = event.timeStamp;
    clicks = now - lastClick <= TRIPLE_CLICK_GAP_MS ? clicks + 1 : 1;
    lastClick = now;
    if (clicks >= 3) {
      clicks = 0;
      window.location.assign(ADMIN_PATH);
    }
  });
}

type NetworkInformation = EventTarget & { effectiveType?: string };

function setUpConnectivityBanner() {
  const banner = document.getElementById('connectivity-banner');
  if (!banner) return;
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  const render = () => {
    const slow = connection?.effectiveType === '2g' || connection?.effectiveType === 'slow-2g';
    if (!navigator.onLine) {
      banner.textContent = "You're offline. Some features may be unavailable";
      banner.dataset.kind = 'offline';
      banner.hidden = false;
    } else if (slow) {
      banner.textContent = 'Slow connection detected';
      banner.dataset.kind = 'slow';
      banner.hidden = false;
    } else {
      banner.hidden = true;
      banner.textContent = '';
    }
  };
  window.addEventListener('online', render);
  window.addEventListener('offline', render);
  connection?.addEventListener('change', render);
  render();
}

function suppressInstallPrompt() {
  // public-site.md §9: "the app suppresses browser install prompts".
  window.addEventListener('beforeinstallprompt', (event) => event.preventDefault());
}

loadDeferredStylesheets();
watchScroll();
setUpDrawer();
keepTabInsideDialogs();
setUpAdminTriggers();
setUpConnectivityBanner();
suppressInstallPrompt();
sendPageView();
