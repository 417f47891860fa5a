// Compact JWS signing for the provider credentials: RS256 (the FCM service-account assertion) and ES256 (the APNs
// provider token, whose signature is the raw r‖s form JOSE requires, not DER).
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signJwt(
  alg: 'RS256' | 'ES256',
  key: KeyObject | string,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
): string {
  const privateKey = typeof key === 'string' ? createPrivateKey(key) : key;
  const input = `${part({ alg, typ: 'JWT', ...header })}.${part(claims)}`;
  const signature = sign(
    'sha256',
    Buffer.from(input),
    alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey,
  );
  return `${input}.${signature.toString('base64url')}`;
}
