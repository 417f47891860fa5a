// Where this process is in its life, for what answers requests: set by the shutdown (server.ts), read by `/ready`
// and by every answer's connection header (app.ts).
export class Lifecycle {
  /** A shutdown has begun: `/ready` says 503, and every answer closes its connection. */
  draining = false;
}
