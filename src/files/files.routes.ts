// GET /files/:id/:variant — the bytes behind a file record's url / preview_url (docs/files.md). Public: the
// signature in the URL is the credential. Stored HTML is served sandboxed (no script, no same-origin access).
import { errorResponses } from '../platform/schemas.js';
import type { FeatureRoutes } from '../platform/feature.js';
import { FileUrlParams, FileUrlQuery } from './files.schemas.js';
import { openFileUrl } from './files.service.js';

export const fileRoutes: FeatureRoutes = async (app, { deps }) => {
  app.get(
    '/files/:id/:variant',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['Files'],
        summary: 'Download a file (or its preview) through a signed URL',
        description:
          'Use the `url` / `preview_url` of a file record as they are: they carry `expires` and `signature` and last 24 hours. ' +
          'A tampered or expired link answers 403; ask the API for the record again to get a fresh one.',
        security: [],
        params: FileUrlParams,
        querystring: FileUrlQuery,
        response: {
          200: {
            description: 'The file',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const file = await openFileUrl(deps, request.params.id, request.params.variant, request.query);
      const name = file.name.replace(/[^\w.-]+/g, '_');
      void reply
        .header('content-type', file.mime)
        .header('content-disposition', `inline; filename="${name}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        // Stored HTML is user content: a sandboxed page runs nothing and cannot reach this origin.
        .header(
          'content-security-policy',
          "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline' https://fonts.googleapis.com; font-src https://fonts.gstatic.com data:",
        );
      return reply.send(file.bytes);
    },
  );
};
