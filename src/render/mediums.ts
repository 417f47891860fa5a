// Mediums (spec 2.11) and their artefact sizes (decisions §18).
import { errors } from '../errors.js';

export const MEDIUMS = [
  'Email',
  'Social',
  'CrmOpenHouse',
  'FacebookCover',
  'InstagramStory',
  'LinkedInCover',
  'Letter',
  'Website',
  'RealtorCover',
  'YouTubeCover',
  'TwitterCover',
  'BusinessCard',
  'PostCard',
  'FoldedPostCard',
  'Brochure',
  'FoldedBrochure',
  'Newsletter',
  'Legal',
  'Flyer',
  'IndexCard',
] as const;
export type Medium = (typeof MEDIUMS)[number];

/** Print trim sizes in inches (flat), before the 0.125 in bleed on each side. */
export const PRINT_SIZES: Partial<Record<Medium, { width: number; height: number }>> = {
  PostCard: { width: 6, height: 4 },
  FoldedPostCard: { width: 8.5, height: 5.5 },
  Flyer: { width: 8.5, height: 11 },
  Brochure: { width: 11, height: 8.5 },
  FoldedBrochure: { width: 11, height: 8.5 },
  BusinessCard: { width: 3.5, height: 2 },
  Letter: { width: 8.5, height: 11 },
  IndexCard: { width: 5, height: 3 },
  Newsletter: { width: 8.5, height: 11 },
};

/** Social image sizes in pixels. */
export const SOCIAL_SIZES: Partial<Record<Medium, { width: number; height: number }>> = {
  InstagramStory: { width: 1080, height: 1920 },
  FacebookCover: { width: 1640, height: 624 },
  LinkedInCover: { width: 1584, height: 396 },
  YouTubeCover: { width: 2560, height: 1440 },
  TwitterCover: { width: 1500, height: 500 },
  Social: { width: 1080, height: 1080 },
  RealtorCover: { width: 1200, height: 628 },
};

export const BLEED_INCHES = 0.125;

export function isMedium(value: string): value is Medium {
  return (MEDIUMS as readonly string[]).includes(value);
}

/** The mediums of a query (`mediums[]`), each checked: an unknown one is a 400 naming the allowed values. */
export function checkMediums(values: string[] | undefined, field = 'mediums'): Medium[] {
  return (values ?? []).map((value, i) => {
    if (!isMedium(value))
      throw errors.invalidField(
        values && values.length > 1 ? `${field}.${i}` : field,
        `must be one of ${MEDIUMS.join(', ')}`,
      );
    return value;
  });
}
