/**
 * Adds `<link rel="stylesheet" href>` to the head once and resolves when it has loaded (or at
 * once if it is already there), so a lazily loaded widget's CSS stays off the page's critical
 * path yet is in place before the widget draws. A sheet that fails to load rejects.
 */
export function loadStylesheet(href: string): Promise<void> {
  const existing = document.head.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`);
  if (existing) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => reject(new Error(`Stylesheet ${href} did not load`)), { once: true });
    document.head.append(link);
  });
}
