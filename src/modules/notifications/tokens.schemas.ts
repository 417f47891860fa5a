// Wire shapes of device-token registration (spec §4.8, decisions §10, §16).
import { Type, type Static } from '@sinclair/typebox';
import { MAX_CHANNEL_BYTES } from './tokens.channel.js';

export const RegisterTokenBody = Type.Object(
  {
    channel: Type.String({
      minLength: 1,
      maxLength: MAX_CHANNEL_BYTES,
      description: `The device token: an APNs token (hex), an FCM registration token, or a Web Push subscription as JSON text; at most ${MAX_CHANNEL_BYTES} bytes`,
    }),
    device_id: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The app’s own name for the device (used to unregister it)',
    }),
    app: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'An app key configured on the server (PUSH_APPS); `rechat` is always known',
    }),
    provider: Type.Optional(
      Type.Union([Type.Literal('webpush'), Type.Literal('fcm'), Type.Literal('apns')], {
        description: 'Inferred when absent: subscription JSON → webpush, 64 hex characters → apns, else fcm',
      }),
    ),
  },
  { examples: [{ channel: 'a'.repeat(64), device_id: 'iphone-1', app: 'rechat' }] },
);
export type RegisterTokenBody = Static<typeof RegisterTokenBody>;

/**
 * `:id` is the device_id given at registration, or the channel itself: an FCM or APNs token is longer than an id
 * (FCM ~163 characters today, APNs up to 400 hex), so the routes that take it allow a channel's length.
 */
export const TOKEN_REF_MAX = MAX_CHANNEL_BYTES;
export const TOKEN_REF_LIMITS = { id: TOKEN_REF_MAX } as const;
const TokenRef = Type.String({
  minLength: 1,
  maxLength: TOKEN_REF_MAX,
  description: `The device_id given at registration, or the channel itself (an FCM or APNs token); at most ${TOKEN_REF_MAX} characters`,
});
export const AppTokenParams = Type.Object({ app: Type.String({ minLength: 1, maxLength: 64 }), id: TokenRef });
export const TokenParams = Type.Object({ id: TokenRef });

export const VapidKeyQuery = Type.Object({
  app: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      default: 'rechat',
      description:
        'The app key whose key to answer (each app may have its own VAPID keys); default `rechat`, the main app',
    }),
  ),
});
