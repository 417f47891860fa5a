// The shipped template library: at least one template per print medium and two social ones, global (every brand
// sees them). Their HTML lives in ./library/*.html and goes through the same sanitiser as any brand's template.
// Seeded on an embedded server's first start (bootstrap.ts) and by `gable seed templates` on any server.
import { readFileSync } from 'node:fs';
import type { FirstStartStep } from '../../platform/feature.js';
import type { Deps } from '../../platform/deps.js';
import type { Medium } from '../../render/mediums.js';
import { countLibraryTemplates, upsertLibraryTemplate } from './templates.repository.js';
import { prepareTemplateHtml } from './templates.service.js';

interface LibraryEntry {
  key: string;
  name: string;
  medium: Medium;
  template_type: string;
}

export const TEMPLATE_LIBRARY: readonly LibraryEntry[] = [
  { key: 'postcard-just-listed', name: 'Just Listed postcard', medium: 'PostCard', template_type: 'JustListed' },
  {
    key: 'folded-postcard-open-house',
    name: 'Open House folded postcard',
    medium: 'FoldedPostCard',
    template_type: 'OpenHouse',
  },
  { key: 'flyer-just-listed', name: 'Just Listed flyer', medium: 'Flyer', template_type: 'JustListed' },
  { key: 'brochure-listing', name: 'Listing brochure', medium: 'Brochure', template_type: 'JustListed' },
  {
    key: 'folded-brochure-branding',
    name: 'Agent tri-fold brochure',
    medium: 'FoldedBrochure',
    template_type: 'Branding',
  },
  { key: 'business-card', name: 'Business card', medium: 'BusinessCard', template_type: 'Branding' },
  { key: 'letter-birthday', name: 'Birthday letter', medium: 'Letter', template_type: 'Birthday' },
  { key: 'index-card-just-sold', name: 'Just Sold index card', medium: 'IndexCard', template_type: 'JustSold' },
  {
    key: 'newsletter-market-update',
    name: 'Market update newsletter',
    medium: 'Newsletter',
    template_type: 'Newsletter',
  },
  {
    key: 'instagram-story-just-listed',
    name: 'Just Listed Instagram story',
    medium: 'InstagramStory',
    template_type: 'JustListed',
  },
  { key: 'facebook-cover-branding', name: 'Agent Facebook cover', medium: 'FacebookCover', template_type: 'Branding' },
];

export function libraryHtml(key: string): string {
  return readFileSync(new URL(`./library/${key}.html`, import.meta.url), 'utf8');
}

/** Inserts the library's templates, or refreshes them to this version's HTML. Answers how many there are. */
export async function seedTemplateLibrary(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const at = deps.clock.now();
  for (const entry of TEMPLATE_LIBRARY) {
    const prepared = prepareTemplateHtml(libraryHtml(entry.key));
    await upsertLibraryTemplate(
      deps.db,
      {
        brand: null,
        library_key: entry.key,
        name: entry.name,
        medium: entry.medium,
        template_type: entry.template_type,
        created_by: null,
        ...prepared,
      },
      at,
    );
  }
  return TEMPLATE_LIBRARY.length;
}

/** First start: the embedded server gets the shipped library. */
export const templateLibraryStep: FirstStartStep = {
  name: 'template-library',
  isNeeded: async (deps) => (await countLibraryTemplates(deps.db)) < TEMPLATE_LIBRARY.length,
  run: async (deps) => {
    const count = await seedTemplateLibrary(deps);
    deps.log.info({ templates: count }, 'seeded the template library');
  },
};
