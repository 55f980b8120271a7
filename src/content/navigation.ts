/** The frame's links, word for word from public-site.md §2 where it names them. */
export interface NavLink {
  href: string;
  label: string;
}

export const HEADER_LINKS: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/booking', label: 'Book Now' },
  { href: '/pricing', label: 'Pricing' },
  { href: '/how-it-works', label: 'How It Works' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/track-project', label: 'Track Project' },
  { href: '/contact', label: 'Contact' },
];

export const FOOTER_LINKS: readonly NavLink[] = [
  { href: '/about', label: 'About Us' },
  { href: '/gallery', label: 'Case Studies' },
  { href: '/how-it-works', label: 'FAQ' },
  { href: '/terms', label: 'Terms of Service' },
  { href: '/privacy', label: 'Privacy Policy' },
  { href: '/contact', label: 'Contact' },
];

export const BOOK_SPECIAL = { href: '/booking', label: 'Book Special' } as const;

/** The active link: exact for Home, by section for the rest (so /gallery/12 marks Gallery). */
export function isActiveLink(href: string, currentPath: string): boolean {
  const path = currentPath.replace(/\/+$/, '') || '/';
  if (href === '/') return path === '/';
  return path === href || path.startsWith(`${href}/`);
}
