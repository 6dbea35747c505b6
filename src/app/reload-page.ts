/**
 * Reloads the page: the one cure for a lazy chunk that will not load (React keeps a failed lazy
 * import for good, and after a deploy only a fresh index.html names the new chunks). Its own
 * module so tests can replace it; jsdom cannot reload.
 */
export function reloadPage(): void {
  window.location.reload();
}
