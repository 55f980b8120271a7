import * as z from '../domain/zod.ts';

// The locations served, in the spec's three groups and order (public-site.md section 2,
// "Gallery / Our Work"); the contact page's coverage list uses the same data.

export const locationGroupSchema = z.object({
  id: z.enum(['cities', 'regions', 'towns']),
  label: z.string().min(1),
  locations: z.array(z.string().min(1)).min(1),
});

export type LocationGroup = z.infer<typeof locationGroupSchema>;

export const LOCATION_GROUPS = z.array(locationGroupSchema).length(3).parse([
  {
    id: 'cities',
    label: 'Major Cities',
    locations: ['Manchester', 'Leeds', 'Liverpool', 'Sheffield', 'Newcastle'],
  },
  {
    id: 'regions',
    label: 'Regions',
    locations: ['Greater Manchester', 'West Yorkshire', 'Merseyside', 'South Yorkshire', 'Tyne and Wear'],
  },
  {
    id: 'towns',
    label: 'Towns',
    locations: ['Bradford', 'Blackpool', 'Preston', 'Lancaster', 'Carlisle'],
  },
]);

export const LOCATIONS_SERVED: readonly string[] = LOCATION_GROUPS.flatMap((group) => group.locations);
