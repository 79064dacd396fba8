import { signal } from '@preact/signals-react';

/** docs/product.md#constants: after a navigation the sidebar closes when the window is at most this wide. */
export const AUTO_CLOSE_MAX_WIDTH = 2500;
export const SMALL_SCREEN_MAX_WIDTH = 767;

/** Expanded or collapsed (docs/product.md#states). Starts open only where it would not auto-close anyway. */
export const sidebarOpen = signal(typeof window !== 'undefined' && window.innerWidth > AUTO_CLOSE_MAX_WIDTH);

export function toggleSidebar(): void {
  sidebarOpen.value = !sidebarOpen.value;
}

export function shouldCloseAfterNavigation(windowWidth: number, open: boolean): boolean {
  return open && windowWidth <= AUTO_CLOSE_MAX_WIDTH;
}

/** Run after every completed navigation. */
export function closeSidebarAfterNavigation(windowWidth: number = window.innerWidth): void {
  if (shouldCloseAfterNavigation(windowWidth, sidebarOpen.value)) sidebarOpen.value = false;
}
