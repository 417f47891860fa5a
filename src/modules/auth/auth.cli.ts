// `gable admin client create|update|list`: OAuth clients are made by operators, never through the API (decisions §2).
import type { Command } from 'commander';
import {
  print,
  runHereOrOnServer,
  withDeps,
  type CommandDepsRunner,
  reportOperatorErrors,
} from '../../platform/commands.js';
import { SIGNING_ALGS, type ClientKind, type SigningAlg } from './auth.columns.js';
import type { CreatedClient, NewClient } from './clients.service.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

const KINDS: readonly ClientKind[] = ['first_party', 'partner', 'public'];

interface CreateOptions {
  name: string;
  kind: string;
  redirectUri: string[];
  postLogoutRedirectUri: string[];
  clientId?: string;
  clientSecret?: string;
  allowWeakSecret?: boolean;
  idTokenAlg?: string;
  introspect?: boolean;
  scopes?: string;
  json?: boolean;
}

/** An imported client_id: URL-safe (RFC 3986 unreserved), long enough not to be guessed by accident. */
const CLIENT_ID = /^[A-Za-z0-9._~-]{8,128}$/;
/** An imported secret: visible ASCII, no spaces (it travels in bodies and HTTP Basic). */
const CLIENT_SECRET = /^[\x21-\x7e]{16,512}$/;
/**
 * What `--allow-weak-secret` takes: any such secret, however short (the WordPress plugin ships `secret`, public in
 * its repository). Only for a partner client: its redirect URIs, matched exactly, keep a code or token from going
 * anywhere else, whoever knows the secret; a first-party secret alone would admit client_credentials tokens.
 */
const WEAK_CLIENT_SECRET = /^[\x21-\x7e]{1,512}$/;

export function registerClientCommands(
  admin: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const client = admin
    .command('client')
    .description('OAuth clients: first-party apps, partner integrations, public (PKCE) apps');

  client
    .command('create')
    .description('register an OAuth client; its secret is printed once and cannot be shown again')
    .requiredOption('--name <name>', 'display name (shown on the consent page)')
    .requiredOption('--kind <kind>', `one of ${KINDS.join(', ')}`)
    .option('--redirect-uri <uri>', 'an allowed redirect URI, exact match (repeat for several)', collect, [])
    .option(
      '--post-logout-redirect-uri <uri>',
      'OpenID Connect: where the client’s logout requests may send the browser back, exact match (repeat for several)',
      collect,
      [],
    )
    .option('--client-id <id>', 'register an existing client under its own id (8–128 URL-safe characters)')
    .option('--client-secret <secret>', '…and its own secret (16–512 visible ASCII characters; stored hashed)')
    .option(
      '--allow-weak-secret',
      'import a partner client secret shorter than 16 characters as it is: warned about and recorded on the client',
    )
    .option('--id-token-alg <alg>', `OpenID Connect: the alg of the client's id_tokens, ${SIGNING_ALGS.join(' or ')}`)
    .option(
      '--introspect',
      'allow this confidential client to call POST /oauth2/introspect (RFC 7662) about any client’s tokens',
    )
    .option('--scopes <scopes>', SCOPES_HELP)
    .option('--json', 'print JSON')
    .action(async (options: CreateOptions) => {
      const problem = createProblem(options);
      if (problem) {
        console.error(problem);
        process.exitCode = 1;
        return;
      }
      const weakSecret = options.clientSecret !== undefined && !CLIENT_SECRET.test(options.clientSecret);
      const allowedScopes = options.scopes === undefined ? null : scopeList(options.scopes);
      const client: NewClient = {
        name: options.name,
        kind: options.kind as ClientKind,
        redirectUris: options.redirectUri,
        ...(options.postLogoutRedirectUri.length ? { postLogoutRedirectUris: options.postLogoutRedirectUri } : {}),
        ...(options.clientId ? { clientId: options.clientId } : {}),
        ...(options.clientSecret ? { clientSecret: options.clientSecret, ...(weakSecret ? { weakSecret } : {}) } : {}),
        ...(options.idTokenAlg ? { idTokenSignedResponseAlg: options.idTokenAlg as SigningAlg } : {}),
        ...(options.introspect ? { mayIntrospect: true } : {}),
        ...(allowedScopes ? { allowedScopes } : {}),
      };
      await reportOperatorErrors(async () => {
        const { createClientAsOperator } = await import('./clients.operator.js');
        const created = await runHereOrOnServer(
          withCommandDeps,
          (deps) => createClientAsOperator(deps, client),
          'client.create',
          client,
        );
        if (created.weak_secret)
          console.error(
            `Warning: the secret of ${created.client_id} is weak (${options.clientSecret!.length} characters; generated ones have 32). ` +
              'It was imported as it is and the client is marked weak_secret (gable admin client list); only its ' +
              'redirect URIs protect it. Replace it with a generated secret when the partner can.',
          );
        if (options.json) print(created, true);
        else console.log(describeCreated(created));
      });
    });

  client
    .command('update')
    .description('change what an OAuth client may ask for; logins granted before keep their scope')
    .argument('<client_id>', 'the client_id')
    .requiredOption('--scopes <scopes>', SCOPES_HELP)
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { scopes: string; json?: boolean }) => {
      const change = { clientId, scopes: scopeList(options.scopes) };
      await reportOperatorErrors(async () => {
        const { setClientScopesAsOperator } = await import('./clients.operator.js');
        const updated = await runHereOrOnServer(
          withCommandDeps,
          (deps) => setClientScopesAsOperator(deps, change),
          'client.scopes',
          change,
        );
        if (options.json) return print(updated, true);
        console.log(`${updated.client_id} may ask for: ${describeScopes(updated.allowed_scopes)}`);
      });
    });

  client
    .command('list')
    .description('list OAuth clients (secrets are never shown)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { listClientsAsOperator } = await import('./clients.operator.js');
      await reportOperatorErrors(async () => {
        const clients = await runHereOrOnServer(withCommandDeps, listClientsAsOperator, 'client.list', {});
        if (options.json) return print(clients, true);
        if (clients.length === 0) return void console.log('no OAuth clients');
        for (const c of clients) {
          const scopes = c.allowed_scopes ? `  scopes: ${c.allowed_scopes.join(',')}` : '';
          const marks = `${c.weak_secret ? ' (weak secret)' : ''}${c.may_introspect ? ' (introspects)' : ''}${c.deleted_at ? ' (deleted)' : ''}`;
          console.log(
            `${c.client_id}  ${c.kind}  ${c.name}${marks}  grants: ${c.grants.join(',')}${scopes}${c.redirect_uris.length ? `  redirect: ${c.redirect_uris.join(' ')}` : ''}${c.post_logout_redirect_uris.length ? `  post-logout: ${c.post_logout_redirect_uris.join(' ')}` : ''}`,
          );
        }
      });
    });
}

const SCOPES_HELP =
  'the API scopes the client may ask for, space- or comma-separated (docs/oauth.md, Scopes); "full", the default, lets it ask for any';

/** The scopes an operator typed; null for `full` alone, which is every scope (stored as the default is). */
function scopeList(text: string): string[] | null {
  const scopes = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  return scopes.length === 1 && scopes[0] === 'full' ? null : scopes;
}

function describeScopes(scopes: string[] | null): string {
  return scopes ? scopes.join(' ') : 'any scope (full)';
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function createProblem(options: CreateOptions): string | null {
  if (!KINDS.includes(options.kind as ClientKind)) return `--kind must be one of ${KINDS.join(', ')}`;
  if (!options.name.trim()) return '--name must not be empty';
  if (options.idTokenAlg !== undefined && !(SIGNING_ALGS as readonly string[]).includes(options.idTokenAlg))
    return `--id-token-alg must be one of ${SIGNING_ALGS.join(', ')}`;
  if (options.kind !== 'first_party' && options.redirectUri.length === 0)
    return `a ${options.kind} client needs at least one --redirect-uri`;
  if (options.clientId !== undefined && !CLIENT_ID.test(options.clientId))
    return '--client-id must be 8 to 128 characters of A-Z a-z 0-9 . _ ~ -';
  if (options.allowWeakSecret) {
    if (options.clientSecret === undefined) return '--allow-weak-secret needs --client-secret (the secret to import)';
    if (options.kind !== 'partner')
      return '--allow-weak-secret is for partner clients only: their redirect URIs protect them, a first-party secret alone admits client_credentials';
    if (!WEAK_CLIENT_SECRET.test(options.clientSecret))
      return '--client-secret must be 1 to 512 visible ASCII characters without spaces';
  } else if (options.clientSecret !== undefined && !CLIENT_SECRET.test(options.clientSecret))
    return '--client-secret must be 16 to 512 visible ASCII characters without spaces (an existing partner’s weaker secret: add --allow-weak-secret)';
  if (options.introspect && options.kind === 'public')
    return '--introspect is for confidential clients only: a public client has no secret to authenticate with';
  if (options.clientSecret !== undefined && options.kind === 'public')
    return 'a public client has no secret: leave out --client-secret';
  if (options.clientSecret !== undefined && options.clientId === undefined)
    return '--client-secret needs --client-id (an imported registration has both)';
  return null;
}

function describeCreated(created: CreatedClient): string {
  return [
    `client_id:     ${created.client_id}`,
    `client_secret: ${created.client_secret ?? '(none: public client, use PKCE)'}`,
    `kind:          ${created.kind}`,
    `grants:        ${created.grants.join(', ')}`,
    ...(created.redirect_uris.length ? [`redirect URIs: ${created.redirect_uris.join(' ')}`] : []),
    ...(created.post_logout_redirect_uris.length
      ? [`post-logout:   ${created.post_logout_redirect_uris.join(' ')}`]
      : []),
    ...(created.id_token_signed_response_alg !== 'RS256'
      ? [`id_token alg:  ${created.id_token_signed_response_alg}`]
      : []),
    ...(created.may_introspect ? ['introspection: allowed (POST /oauth2/introspect)'] : []),
    `scopes:        ${describeScopes(created.allowed_scopes)}`,
    ...(created.client_secret ? ['The secret is shown only now; store it safely.'] : []),
  ].join('\n');
}
