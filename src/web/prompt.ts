// OpenID Connect's say over the sign-in pages (OIDC Core §3.1.2.1, docs/openid-connect.md): `prompt` and `max_age`
// decide, when a request arrives, whether this browser's sign-in may be used, must be given again, or, with
// prompt=none, whether the request fails at once because the pages would have to be shown.
import type { Deps } from '../platform/deps.js';
import type { Interaction } from './interaction.js';
import type { WebSession } from './session.js';
import { loadPageUser } from './steps.js';

export type InteractionOutcome =
  /** Show the pages; `signOut` when the session's sign-in must be given again first (prompt=login, max_age). */
  | { kind: 'pages'; signOut: boolean }
  /** prompt=none and a page would be needed: back to the client with this error (OIDC Core §3.1.2.6). */
  | { kind: 'refused'; error: 'login_required' | 'consent_required'; description: string };

export async function interactionOutcome(
  deps: Deps,
  session: WebSession | null,
  interaction: Interaction,
): Promise<InteractionOutcome> {
  const signedIn = await signedInUser(deps, session);
  const tooOld =
    interaction.maxAge !== null &&
    (session?.signedInAt == null ||
      deps.clock.now().getTime() - session.signedInAt.getTime() > interaction.maxAge * 1000);
  if (interaction.prompt.has('none')) {
    if (!signedIn) return refused('login_required', 'The user is not signed in');
    if (tooOld) return refused('login_required', 'The user signed in longer ago than max_age allows');
    // Every authorization is approved by the user on the consent page (no consent is remembered), so a silent
    // request never succeeds once the user is known.
    return refused('consent_required', 'The user must approve this request on the consent page');
  }
  return { kind: 'pages', signOut: session?.user != null && (interaction.prompt.has('login') || tooOld) };
}

/** Whether the session has a live user past every sign-in step (password, and TOTP when the user has MFA). */
async function signedInUser(deps: Deps, session: WebSession | null): Promise<boolean> {
  if (!session?.user) return false;
  const user = await loadPageUser(deps, session.user);
  return user !== undefined && (!user.mfa_enabled || session.mfaPassed);
}

function refused(error: 'login_required' | 'consent_required', description: string): InteractionOutcome {
  return { kind: 'refused', error, description };
}
