import * as z from '../domain/zod.ts';
import {
  NIGHT_SURCHARGE_PER_PATCH_PENCE,
  RUSH_PER_PATCH_PENCE,
  STENCIL_CHANGE_PENCE,
  formatPounds,
} from '../domain/pricing.ts';
import { ALLOWED_UPLOAD_EXTENSIONS, MAX_UPLOAD_BYTES } from '../domain/booking-schema.ts';
import { formatFileSize } from '../domain/format.ts';

// The pricing page's add-ons grid and stencil specifications (public-site.md sections 2 and 9).

export const STENCIL_MAX_WIDTH_MM = 900;
export const STENCIL_MAX_HEIGHT_MM = 600;
const STENCIL_MAX_SIZE = `${STENCIL_MAX_WIDTH_MM}x${STENCIL_MAX_HEIGHT_MM}mm`;

export const addonSchema = z.object({
  id: z.enum(['rush', 'large-stencil', 'night', 'multi-location']),
  name: z.string().min(1),
  priceLabel: z.string().min(1),
  /** Set for add-ons priced per patch; the others are quoted. */
  pricePerPatchPence: z.number().int().positive().optional(),
  description: z.string().min(1),
});

export type Addon = z.infer<typeof addonSchema>;

export const ADDONS = z.array(addonSchema).length(4).parse([
  {
    id: 'rush',
    name: 'Rush Job',
    priceLabel: `+${formatPounds(RUSH_PER_PATCH_PENCE)} per patch`,
    pricePerPatchPence: RUSH_PER_PATCH_PENCE,
    description: '2-3 day completion for launches and last-minute campaigns.',
  },
  {
    id: 'large-stencil',
    name: 'Large Stencil',
    priceLabel: 'Quote only',
    description: `Designs above ${STENCIL_MAX_SIZE}, priced by quote.`,
  },
  {
    id: 'night',
    name: 'Night Work',
    priceLabel: `+${formatPounds(NIGHT_SURCHARGE_PER_PATCH_PENCE)} per patch`,
    pricePerPatchPence: NIGHT_SURCHARGE_PER_PATCH_PENCE,
    description: 'Installation between 6pm and 6am, ready for the morning footfall.',
  },
  {
    id: 'multi-location',
    name: 'Multi-Location (5+ sites)',
    priceLabel: 'Contact us',
    description: 'Coordinated rollouts across five or more sites or cities.',
  },
]);

export const stencilSpecificationsSchema = z.object({
  maxWidthMm: z.number().int().positive(),
  maxHeightMm: z.number().int().positive(),
  changeAfterApprovalPence: z.number().int().positive(),
  items: z.array(z.object({ label: z.string().min(1), value: z.string().min(1) })).min(4),
});

export type StencilSpecifications = z.infer<typeof stencilSpecificationsSchema>;

const UPLOAD_FORMATS = ALLOWED_UPLOAD_EXTENSIONS.filter((extension) => extension !== 'jpeg')
  .map((extension) => extension.toUpperCase())
  .join(', ');

export const STENCIL_SPECIFICATIONS = stencilSpecificationsSchema.parse({
  maxWidthMm: STENCIL_MAX_WIDTH_MM,
  maxHeightMm: STENCIL_MAX_HEIGHT_MM,
  changeAfterApprovalPence: STENCIL_CHANGE_PENCE,
  items: [
    { label: 'Maximum size', value: `${STENCIL_MAX_SIZE} (larger designs by quote)` },
    { label: 'Material', value: 'Durable, reusable laser-cut stencil sheet' },
    { label: 'Artwork files', value: `${UPLOAD_FORMATS}, up to ${formatFileSize(MAX_UPLOAD_BYTES)}` },
    { label: 'Best results', value: 'Bold logos, lettering and simple shapes with clear outlines' },
    { label: 'Production time', value: '2-3 business days' },
    {
      label: 'Changes after approval',
      value: `${formatPounds(STENCIL_CHANGE_PENCE)}, as the stencil has to be remanufactured`,
    },
  ],
});
