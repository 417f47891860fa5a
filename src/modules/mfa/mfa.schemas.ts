// Request bodies and parameters of the MFA endpoints (responses are the user record, or 204).
import { Type, type Static } from '@sinclair/typebox';

/** Where a recovery code may stand in for the authenticator (validating a login, removing MFA). */
export const MfaCodeBody = Type.Object({
  token: Type.String({
    description: 'The 6-digit code from the authenticator app, or an unused recovery code',
    examples: ['123456', 'abcd-efgh-ijkl-mnop'],
  }),
});
export type MfaCodeBody = Static<typeof MfaCodeBody>;

/** Where only the authenticator itself will do (enabling MFA, replacing the recovery codes). */
export const TotpCodeBody = Type.Object({
  token: Type.String({ description: 'The 6-digit code from the authenticator app', examples: ['123456'] }),
});
export type TotpCodeBody = Static<typeof TotpCodeBody>;

/** A member of a brand, whose MFA an Admin resets. */
export const MemberMfaParams = Type.Object({
  brand: Type.String({ format: 'uuid' }),
  user: Type.String({ format: 'uuid' }),
});
