// How every public page is sent: its status, its own Content-Security-Policy, the cache policy the route chose, and
// the headers that keep it out of frames and sniffers.
import type { FastifyReply } from 'fastify';
import type { RenderedPage } from './page-layout.js';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function sendPage(reply: FastifyReply, status: number, page: RenderedPage, cache: string): FastifyReply {
  return reply
    .status(status)
    .headers({ ...SECURITY_HEADERS, 'content-security-policy': page.csp, 'cache-control': cache })
    .type('text/html; charset=utf-8')
    .send(page.html);
}
