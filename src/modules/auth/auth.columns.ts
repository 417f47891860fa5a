// What the enumerated columns of the OAuth tables hold. The generated database types (src/db/schema.generated.ts)
// leave them as string; the repositories narrow the rows they read to these.

/** oauth_clients.kind (decisions §3): which grants a client may use follows from it (clients.service.ts). */
export type ClientKind = 'first_party' | 'partner' | 'public';
