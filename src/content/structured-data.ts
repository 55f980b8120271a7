import { BUSINESS } from './business.ts';
import { LOCATIONS_SERVED } from './locations-served.ts';

/** schema.org LocalBusiness with its service area, for search engines. */
export function localBusinessJsonLd(site: URL) {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: BUSINESS.legalName,
    description: BUSINESS.tagline,
    url: site.href,
    telephone: BUSINESS.phoneE164,
    email: BUSINESS.email,
    image: new URL('/og-image.png', site).href,
    priceRange: '££',
    address: {
      '@type': 'PostalAddress',
      addressLocality: BUSINESS.address.locality,
      addressRegion: BUSINESS.address.region,
      addressCountry: BUSINESS.address.country,
    },
    areaServed: LOCATIONS_SERVED.map((name) => ({ '@type': 'Place', name })),
    openingHoursSpecification: {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: BUSINESS.supportHours.days,
      opens: BUSINESS.supportHours.opens,
      closes: BUSINESS.supportHours.closes,
    },
  };
}
