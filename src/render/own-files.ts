// What a page being rendered may load from this server, answered in-process (no HTTP): stored files through their
// signed URLs, and the demo brand's logos. Anything else is a 404 to the page.
import type { Deps } from '../platform/deps.js';
import { openFileUrl } from '../files/files.service.js';
import { DEMO_LOGOS } from '../modules/brands/demo-logos.routes.js';
import { isUuid } from '../lib/uuid.js';
import type { OwnResponse } from './renderer.js';

const NOT_FOUND: OwnResponse = { status: 404, contentType: 'text/plain', body: Buffer.from('not found') };

export async function ownResponse(deps: Deps, pathAndQuery: string): Promise<OwnResponse> {
  const url = new URL(pathAndQuery, 'http://own.invalid');
  const logo = /^\/demo\/logos\/([a-z-]+)\.svg$/.exec(url.pathname)?.[1];
  if (logo && DEMO_LOGOS[logo])
    return { status: 200, contentType: 'image/svg+xml', body: Buffer.from(DEMO_LOGOS[logo]) };
  const file = /^\/files\/([^/]+)\/(file|preview)$/.exec(url.pathname);
  if (!file || !isUuid(file[1]!)) return NOT_FOUND;
  const expires = url.searchParams.get('expires');
  try {
    const found = await openFileUrl(deps, file[1]!, file[2] as 'file' | 'preview', {
      ...(expires && /^\d+$/.test(expires) ? { expires: Number(expires) } : {}),
      ...(url.searchParams.get('signature') ? { signature: url.searchParams.get('signature')! } : {}),
    });
    return { status: 200, contentType: found.mime, body: found.bytes };
  } catch {
    return NOT_FOUND;
  }
}
