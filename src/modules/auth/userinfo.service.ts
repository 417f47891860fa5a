// GET/POST /oauth2/userinfo (OIDC Core §5.3): the claims of the token's user that its login's scope releases. A
// token whose login did not ask for `openid` is refused as RFC 6750 §3.1 says: 403 insufficient_scope.
import type { Deps } from '../../platform/deps.js';
import { AppError, errors } from '../../errors.js';
import type { Actor } from './authenticate.js';
import { includesOpenid, scopedUserClaims } from './openid.claims.js';
import type { UserInfo } from './openid.schemas.js';
import { findFamilyLogin } from './tokens.repository.js';

const INSUFFICIENT_SCOPE = {
  'www-authenticate':
    'Bearer error="insufficient_scope", error_description="The token\'s login did not ask for the openid scope", scope="openid"',
};

export async function userInfo(deps: Deps, actor: Actor): Promise<UserInfo> {
  const login = await findFamilyLogin(deps.db, actor.family);
  if (!actor.userId || !login || !includesOpenid(login.scope))
    throw new AppError(
      'AccessForbidden',
      'This token was not issued for OpenID Connect: its authorization request had no openid scope',
      undefined,
      INSUFFICIENT_SCOPE,
      'insufficient_scope',
    );
  const claims = await scopedUserClaims(deps.db, actor.userId, login.scope);
  if (!claims) throw errors.unauthorized('The access token is invalid or has been revoked');
  return { sub: actor.userId, ...claims };
}
