// What a page being rendered may load from this server, answered in-process (no HTTP): stored files through their
// signed URLs, and the SVGs this server draws (the demo brand's logos and listing photos, which deps.ts gathers
// from their modules). Anything else is a 404 to the page.
import type { Deps } from '../platform/deps.js';
import { openFileUrl } from '../files/files.service.js';
import { isUuid } from '../lib/uuid.js';
import type { OwnResponse } from './own-response.js';

/** SVGs this server draws and serves, by path. */
export type DrawnFiles = ReadonlyMap<string, string>;

const NOT_FOUND: OwnResponse = { status: 404, contentType: 'text/plain', body: Buffer.from('not found') };

export async function ownResponse(deps: Deps, pathAndQuery: string, drawn: DrawnFiles): Promise<OwnResponse> {
  const url = new URL(pathAndQuery, 'http://own.invalid');
  const svg = drawn.get(url.pathname);
  if (svg) return { status: 200, contentType: 'image/svg+xml', body: Buffer.from(svg) };
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
