import * as z from '../domain/zod.ts';

// The stats strip on the home, gallery and about pages (public-site.md section 2).

export const statSchema = z.object({
  value: z.string().min(1),
  label: z.string().min(1),
});

export type Stat = z.infer<typeof statSchema>;

export const STATS = z.array(statSchema).length(4).parse([
  { value: '500+', label: 'Patches Created' },
  { value: '150+', label: 'Happy Clients' },
  { value: '50+', label: 'Cities Covered' },
  { value: '100%', label: 'Eco-Friendly' },
]);
