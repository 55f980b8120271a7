import * as z from '../domain/zod.ts';

// The four static case-study cards on /gallery (public-site.md section 2, "Gallery / Our Work").

export const caseStudySchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  title: z.string().min(1),
  description: z.string().min(1),
  image: z.string().regex(/^\/images\/case-studies\/[a-z0-9-]+\.svg$/),
  imageAlt: z.string().min(1),
  category: z.string().min(1),
  location: z.string().min(1),
});

export type CaseStudy = z.infer<typeof caseStudySchema>;

export const CASE_STUDIES = z
  .array(caseStudySchema)
  .length(4)
  .refine((studies) => new Set(studies.map((study) => study.id)).size === studies.length, {
    error: 'Case study ids must be unique',
  })
  .parse([
    {
      id: 'coffee-shop-launch',
      title: 'Independent Coffee Shop Launch',
      description:
        'Five patches with the shop logo and an arrow led commuters from the tram stop to a new café in the Northern Quarter during its opening fortnight.',
      image: '/images/case-studies/coffee-shop-launch.svg',
      imageAlt: 'A coffee cup logo and arrow cleaned into a grey city pavement',
      category: 'Retail Launch',
      location: 'Manchester',
    },
    {
      id: 'music-festival-wayfinding',
      title: 'Music Festival Wayfinding',
      description:
        'A trail of branded patches guided festival-goers from the station to the gates, installed overnight so the route was ready for the first morning.',
      image: '/images/case-studies/music-festival-wayfinding.svg',
      imageAlt: 'A festival logo with a directional arrow cleaned into a paved walkway',
      category: 'Event Marketing',
      location: 'Leeds',
    },
    {
      id: 'fitness-studio-opening',
      title: 'Fitness Studio Grand Opening',
      description:
        'Ten patches across the city centre announced a new studio and its opening offer, putting the brand right under the feet of city-centre shoppers.',
      image: '/images/case-studies/fitness-studio-opening.svg',
      imageAlt: 'A bold fitness studio logo and slogan cleaned into a busy shopping street pavement',
      category: 'Brand Campaign',
      location: 'Liverpool',
    },
    {
      id: 'freshers-week-campaign',
      title: "Freshers' Week Campaign",
      description:
        'A student app reached new arrivals with eco-friendly patches along the busiest campus walking routes, without a single flyer left to clear up.',
      image: '/images/case-studies/freshers-week-campaign.svg',
      imageAlt: 'A smartphone app logo and website address cleaned into a campus footpath',
      category: 'Student Marketing',
      location: 'Newcastle',
    },
  ]);
