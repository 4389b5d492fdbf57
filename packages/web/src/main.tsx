import { LOADING_PAGE_TEXT, LOCATION_STORAGE_KEY, SERVER_RENDERED_ATTRIBUTE, SHELL_RENDERED_ATTRIBUTE, TOKEN_STORAGE_KEY } from '@furniture/contract';
import { paths } from './config/paths.ts';

/**
 * The page's first script. Every public page comes from the server rendered, working as links and
 * a search form, so a visitor's first load needs no app: its code loads on the first sign of use (a
 * pointer or key pressed, something focused, the mouse wheel turned: scrolling with the wheel
 * alone must bring the product page's map) and then hydrates the page. A click or submit made
 * before it is ready is held and made again once it is, so the first tap on Wish or Book Now acts,
 * signed in or not; until then the pressed control is marked busy and a bar across the top says the
 * page is loading, so a slow network shows progress at once. Every other page, a page sent as its
 * shell (its content needs the app), and those for someone signed in or who chose a location on
 * this device (how far each piece is, which only the app can work out), start the app at once
 * (decision 29). A shell opened by a visitor, who may not see its content, goes straight to the
 * login page, as the app's guard would send them, without loading the app first (decision 50).
 */
const root = document.getElementById('root')!;
const serverRendered = root.hasAttribute(SERVER_RENDERED_ATTRIBUTE);
const shellOnly = root.hasAttribute(SHELL_RENDERED_ATTRIBUTE);

function storedOnDevice(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}
const signedIn = () => storedOnDevice(TOKEN_STORAGE_KEY);

const useEvents = ['pointerdown', 'keydown', 'focusin', 'touchstart', 'wheel'] as const;
const heldEvents = ['click', 'submit'] as const;
let held: { type: string; target: EventTarget | null; hideProgress: () => void } | undefined;
let starting = false;

/**
 * Marks the pressed control (or the form submitted) busy (not dimmed: its words must stay readable) and shows a bar sweeping across
 * the top, styled inline as the app's stylesheet may not have loaded; returns what takes them away.
 */
function showProgress(target: EventTarget | null): () => void {
  const control = target instanceof Element ? (target.closest('a, button, label, select, form') ?? target) : undefined;
  const controlStyle = control?.getAttribute('style');
  control?.setAttribute('aria-busy', 'true');
  if (control instanceof HTMLElement) control.style.cssText += ';cursor:progress';
  const bar = document.createElement('div');
  bar.setAttribute('role', 'status');
  bar.style.cssText = 'position:fixed;inset:0 0 auto 0;z-index:60;height:4px;overflow:hidden;background:#e0e7ff';
  // The element screen readers announce; the sweep below is what eyes see.
  const progress = document.createElement('progress');
  progress.setAttribute('aria-label', LOADING_PAGE_TEXT);
  progress.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;opacity:0';
  const sweep = document.createElement('div');
  sweep.style.cssText = 'height:100%;width:40%;background:#4338ca';
  bar.append(progress, sweep);
  document.body.append(bar);
  if (!matchMedia('(prefers-reduced-motion: reduce)').matches) {
    sweep.animate([{ transform: 'translateX(-100%)' }, { transform: 'translateX(250%)' }], { duration: 1200, iterations: Infinity });
  }
  return () => {
    control?.removeAttribute('aria-busy');
    if (controlStyle == null) control?.removeAttribute('style');
    else control?.setAttribute('style', controlStyle);
    bar.remove();
  };
}

function hold(event: Event) {
  // The first is the one the visitor meant; a click's submit follows from the click made again.
  held ??= { type: event.type, target: event.target, hideProgress: showProgress(event.target) };
  event.preventDefault();
  event.stopImmediatePropagation();
}

function replay() {
  for (const type of heldEvents) document.removeEventListener(type, hold, true);
  const event = held;
  held = undefined;
  // The app shows its own progress from here on.
  event?.hideProgress();
  if (!event || !(event.target instanceof Element) || !event.target.isConnected) return;
  if (event.type === 'submit' && event.target instanceof HTMLFormElement) event.target.requestSubmit();
  // Dispatched rather than click(): the target may be an icon's SVG inside the button or link.
  else event.target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, view: window }));
}

function start() {
  if (starting) return;
  starting = true;
  for (const type of useEvents) document.removeEventListener(type, start, true);
  // Should the app's code not load, the held click is made again without it: links and the search form still work.
  import('./app/start.tsx')
    .then((app) => app.startApp(serverRendered, replay))
    .catch((error: unknown) => {
      console.error(error);
      replay();
    });
}

// A page rendered by the server shows its buttons before the app handles them, signed in or not.
if (serverRendered) for (const type of heldEvents) document.addEventListener(type, hold, true);
if (shellOnly && !signedIn()) {
  location.replace(paths.login.getHref(location.pathname + location.search));
} else if (serverRendered && !shellOnly && !signedIn() && !storedOnDevice(LOCATION_STORAGE_KEY)) {
  for (const type of useEvents) document.addEventListener(type, start, { capture: true, passive: true });
} else {
  start();
}
