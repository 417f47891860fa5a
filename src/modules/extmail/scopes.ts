// Scopes of a linked mailbox (spec §2.4, §4.3). Clients ask for the spec's names; the provider grants Graph
// permissions, which are stored under the spec's names (`scope`) and summarised (`scope_summary`).

/** What `POST /users/self/extmail` accepts. */
export const LINK_SCOPES = ['Contacts.Read', 'Mail.Read', 'Mail.Send'] as const;
export type LinkScope = (typeof LINK_SCOPES)[number];

/** Always requested: a refresh token (offline_access), the account's identity and `/me`. */
export const BASE_SCOPES = ['offline_access', 'openid', 'profile', 'email', 'User.Read'] as const;

/** Graph permission → the spec's scope name (permissions not listed are not shown). */
const GRANTED: Record<string, string> = {
  'contacts.read': 'Contacts.Read',
  'contacts.readwrite': 'Contacts.Read',
  'mail.read': 'Mail.Read',
  'mail.send': 'Mail.Send',
  'mail.readwrite': 'Mail.ReadWrite',
  'calendars.read': 'Calendar',
  'calendars.readwrite': 'Calendar',
};

const SUMMARY: Record<string, string> = {
  'Contacts.Read': 'contacts.read',
  'Mail.Read': 'mail.read',
  'Mail.Send': 'mail.send',
  'Mail.ReadWrite': 'mail.modify',
  Calendar: 'calendar',
};

/** The provider's granted scope string (space separated, maybe with the Graph resource prefix) → spec names. */
export function grantedScopes(granted: string): string[] {
  const names = new Set<string>();
  for (const raw of granted.split(/\s+/)) {
    const bare = raw.replace(/^https:\/\/graph\.microsoft\.com\//i, '').toLowerCase();
    const name = GRANTED[bare];
    if (name) names.add(name);
  }
  return [...names].sort();
}

export function scopeSummary(scope: readonly string[]): string[] {
  return ['profile', ...scope.map((s) => SUMMARY[s]).filter((s): s is string => s !== undefined)];
}
