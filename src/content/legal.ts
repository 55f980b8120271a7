import * as z from '../domain/zod.ts';

// The shape of a legal page (public-site.md section 2, "Terms, privacy, about"): /terms reads
// terms.ts, /privacy reads privacy.ts, and both render through LegalDocument.astro.

export const legalSectionSchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  heading: z.string().min(1),
  paragraphs: z.array(z.string().min(1)).min(1),
  points: z.array(z.string().min(1)).optional(),
  /** Text after the list, if any. */
  closing: z.string().min(1).optional(),
});

export type LegalSection = z.infer<typeof legalSectionSchema>;

export const legalPageSchema = z.object({
  title: z.string().min(1),
  /** ISO date shown as "Last updated". */
  lastUpdated: z.iso.date(),
  intro: z.string().min(1),
  sections: z
    .array(legalSectionSchema)
    .min(4)
    .refine((sections) => new Set(sections.map((section) => section.id)).size === sections.length, {
      error: 'Section ids must be unique',
    }),
});

export type LegalPage = z.infer<typeof legalPageSchema>;
