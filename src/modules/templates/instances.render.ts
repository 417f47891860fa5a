// Rendering a template instance (the job of instances.tasks.ts) into its medium's artefact (decisions §18; docs/templates.md). Print mediums
// get a PDF at trim size plus bleed with a PNG preview; social mediums a PNG at their pixel size. The artefact
// becomes the instance's file. Idempotent: a rendered instance is left alone, and files are content-addressed.
// A failure (a timeout, a crashed browser) is recorded on the instance and the job is retried once. Photos on
// other hosts are fetched first and inlined (render/remote-images.ts): the browser loads nothing remote.
import type { Deps } from '../../platform/deps.js';
import { storeFile, storePreview } from '../../files/files.service.js';
import { canRender } from '../../render/renderer.js';
import { inlineRemoteImages } from '../../render/remote-images.js';
import { findInstance, setRendered, updateRender } from './instances.repository.js';
import { isMedium } from '../../render/mediums.js';
import { findTemplate } from './templates.repository.js';

export const NO_RENDERER_NOTE =
  'No renderer is available on this server (install chromium or set CHROMIUM_PATH): the file is the instance’s HTML and there is no preview';

export async function renderInstance(deps: Deps, id: string): Promise<void> {
  const instance = await findInstance(deps.db, id);
  if (!instance || instance.render_status === 'rendered') return;
  const now = () => deps.clock.now();
  if (!deps.renderer || !isMedium(instance.medium) || !canRender(instance.medium)) {
    const note = deps.renderer
      ? `Medium ${instance.medium} has no print or image size: the file is the instance’s HTML`
      : NO_RENDERER_NOTE;
    await updateRender(deps.db, id, { status: 'html_only', note }, now());
    return;
  }
  let rendered;
  try {
    const page = await inlineRemoteImages(deps.outbound, instance.html, deps.config.baseUrl);
    rendered = await deps.renderer.render(page.html, instance.medium);
  } catch (error) {
    await updateRender(
      deps.db,
      id,
      { status: 'failed', note: `Rendering failed: ${(error as Error).message.slice(0, 500)}` },
      now(),
    );
    throw error; // retried once (retryLimit)
  }
  const template = await findTemplate(deps.db, instance.template);
  const base =
    (template?.name ?? 'template')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'template';
  const note =
    rendered.blocked.length > 0
      ? `The page asked for ${rendered.blocked.length} address(es) the renderer does not load: ${rendered.blocked.slice(0, 5).join(', ')}`
      : null;
  await deps.db.transaction().execute(async (trx) => {
    const file = rendered.pdf
      ? await storeFile(deps, trx, {
          brand: instance.brand,
          name: `${base}.pdf`,
          mime: 'application/pdf',
          bytes: rendered.pdf,
          createdBy: instance.created_by,
        })
      : await storeFile(deps, trx, {
          brand: instance.brand,
          name: `${base}.png`,
          mime: 'image/png',
          bytes: rendered.png,
          createdBy: instance.created_by,
        });
    await storePreview(deps, trx, file.id, rendered.png, 'image/png');
    await setRendered(trx, id, file.id, note, now());
  });
}
