import { useEffect, useId, useRef, useState } from 'react';

/**
 * A menu that opens over the page on small screens (the navbar's menu, the dashboard's drawer).
 * While it is open it acts like a modal dialog: focus moves to its first link, the rest of the
 * page is inert and does not scroll, and Escape, a click outside it or the toggle's disappearing
 * (the window grew past the breakpoint) close it. Focus that was in the menu returns to the
 * toggle. `regionRef` marks what stays live: the menu with its toggle or overlay.
 */
export function useDisclosureMenu<Toggle extends HTMLElement = HTMLButtonElement, Region extends HTMLElement = HTMLDivElement>() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<Toggle>(null);
  const regionRef = useRef<Region>(null);

  useEffect(() => {
    // Not named `toggle`: Tailwind scans this file, and that name negated reads to it as daisyUI's
    // toggle class with the important flag, which would add half a kilobyte of CSS.
    const opener = toggleRef.current;
    const region = regionRef.current;
    if (!open || !opener || !region) return;
    const close = () => setOpen(false);

    // Everything beside the path from <body> down to the region, as a modal <dialog> would have it.
    const inerted: HTMLElement[] = [];
    for (let node: HTMLElement = region; node.parentElement && node !== document.body; node = node.parentElement) {
      for (const sibling of node.parentElement.children) {
        if (sibling !== node && sibling instanceof HTMLElement && !sibling.inert) {
          sibling.inert = true;
          inerted.push(sibling);
        }
      }
    }
    const root = document.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = 'hidden';

    // daisyUI's drawer becomes visible after a short delay, and until then it cannot take focus:
    // try on each frame until it does (its transition may start before this effect runs, so
    // waiting for the transition's events alone can miss it), for a second at most.
    const first = document.getElementById(menuId)?.querySelector<HTMLElement>('a[href]');
    const openedAt = performance.now();
    let frame = 0;
    const focusFirst = () => {
      first?.focus();
      if (first && document.activeElement !== first && performance.now() - openedAt < 1000) {
        frame = requestAnimationFrame(focusFirst);
      }
    };
    focusFirst();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    // A click on the inert page lands on <body>, so it closes the menu without activating anything.
    // (The click that opened the menu may still be on its way up from the toggle.)
    const onClick = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!region.contains(target) && !opener.contains(target)) close();
    };
    const toggleShown = new ResizeObserver(() => {
      if (!opener.getClientRects().length) close();
    });
    toggleShown.observe(opener);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onClick);

    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('click', onClick);
      toggleShown.disconnect();
      for (const element of inerted) element.inert = false;
      root.style.overflow = overflow;
      const focused = document.activeElement;
      if (!focused || focused === document.body || region.contains(focused)) opener.focus();
    };
  }, [open, menuId]);

  return { open, setOpen, menuId, toggleRef, regionRef };
}
