// Injecting into routes that may answer with an endless stream (GET /notifications/stream): a plain inject
// would wait for the end of a body that never ends. This one resolves when the head is written; a
// `text/event-stream` answer is dropped unread (the app ends its streams when it closes), any other is read whole.
import type { FastifyInstance, InjectOptions } from 'fastify';

export interface SettledResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  streaming: boolean;
}

/** Whether an OpenAPI operation answers 200 with an event stream. */
export function isStreamingOperation(operation: { responses?: Record<string, unknown> } | undefined): boolean {
  const ok = operation?.responses?.['200'] as { content?: Record<string, unknown> } | undefined;
  return ok?.content?.['text/event-stream'] !== undefined;
}

export async function injectSettled(app: FastifyInstance, options: InjectOptions): Promise<SettledResponse> {
  const res = await app.inject({ ...options, payloadAsStream: true });
  const stream = res.stream();
  const streaming = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
  if (streaming) {
    stream.destroy();
    return { statusCode: res.statusCode, headers: res.headers, body: '', streaming };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), streaming };
}
