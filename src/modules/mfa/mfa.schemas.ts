// Request bodies of the MFA endpoints (responses are the user record, or 204).
import { Type, type Static } from '@sinclair/typebox';

export const MfaCodeBody = Type.Object({
  token: Type.String({ description: 'The 6-digit code from the authenticator app', examples: ['123456'] }),
});
export type MfaCodeBody = Static<typeof MfaCodeBody>;
