// What the enumerated columns of the OAuth tables hold. The generated database types (src/db/schema.generated.ts)
// leave them as string; the repositories narrow the rows they read to these.
import { sealedColumns } from '../../db/sealed-columns.js';

/** oauth_clients.kind (decisions §3): which grants a client may use follows from it (clients.service.ts). */
export type ClientKind = 'first_party' | 'partner' | 'public';

/** The algs id_tokens are signed with (signing_keys.alg, oauth_clients.id_token_signed_response_alg). */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** The sealed private halves of the signing keys: `gable secrets rotate` re-seals them (cli/sealed-columns.ts). */
export const SIGNING_KEYS_SEALED = sealedColumns('signing_keys', 'id', ['private_jwk_sealed']);
