// Wire shapes of the user record (spec §2.2), the embedded agent (spec §2.3) and the /users/self bodies.
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, Uuid } from '../../platform/schemas.js';

const NullableString = Nullable(Type.String());

export const Agent = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('agent'),
    email: NullableString,
    mlsid: Type.String(),
    fax: NullableString,
    full_name: NullableString,
    first_name: NullableString,
    last_name: NullableString,
    middle_name: NullableString,
    phone_number: NullableString,
    nar_number: NullableString,
    office_mui: NullableString,
    status: Type.String(),
    office_mlsid: NullableString,
    work_phone: NullableString,
    generational_name: NullableString,
    mls_unique_id: Type.String(),
    mls: Type.String(),
    license_number: NullableString,
    designation: NullableString,
    nrds: NullableString,
    office_id: Nullable(Uuid),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
    secret_questions: Type.Array(Type.String(), { description: 'Three masked strings; the answers are never exposed' }),
  },
  { title: 'Agent' },
);
export type Agent = Static<typeof Agent>;

export const UserRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('user'),
    username: NullableString,
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    phone_number: Nullable(Type.String({ description: 'E.164, e.g. +14155550100' })),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
    address_id: Nullable(Uuid),
    cover_image_url: NullableString,
    profile_image_url: NullableString,
    cover_image_thumbnail_url: NullableString,
    profile_image_thumbnail_url: NullableString,
    user_status: Type.String(),
    email_confirmed: Type.Boolean(),
    phone_confirmed: Type.Boolean(),
    timezone: Type.String({ description: 'IANA time zone name' }),
    user_type: Type.String(),
    is_shadow: Nullable(Type.Boolean()),
    personal_room: Uuid,
    brand: Nullable(Uuid),
    active_brand: Nullable(Uuid),
    fake_email: NullableString,
    features: Nullable(Type.Array(Type.Unknown())),
    last_seen_at: Nullable(EpochSeconds),
    last_seen_type: NullableString,
    email_signature: Type.String(),
    bio: Type.String(),
    daily_enabled: Type.Boolean(),
    push_allowed: Type.Boolean(),
    has_password: Type.Boolean(),
    email_quota: Type.Number(),
    website: NullableString,
    instagram: NullableString,
    twitter: NullableString,
    linkedin: NullableString,
    youtube: NullableString,
    facebook: NullableString,
    tiktok: NullableString,
    designation: NullableString,
    mfa_enabled: Type.Boolean(),
    vendor_user_id: NullableString,
    current_time: Type.String({ description: "Human-formatted local time in the user's time zone" }),
    agents: Nullable(Type.Array(Agent)),
    display_name: Type.String(),
    abbreviated_display_name: Type.String(),
    online_state: Type.String(),
    mfa_url: Type.Optional(Type.String({ description: 'otpauth:// URI, only in the MFA setup response' })),
    mfa_qr_code: Type.Optional(
      Type.String({ description: 'data:image/png;base64 URI, only in the MFA setup response' }),
    ),
    mfa_recovery_codes: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'Ten single-use recovery codes, only in the responses that create them (MFA verify, recovery-code regeneration): shown once, stored hashed',
      }),
    ),
  },
  { title: 'User' },
);
export type UserRecord = Static<typeof UserRecord>;

/** A field that null or "" clears (the service turns "" into null; bodies are validated without coercion). */
const ClearableString = (options: Parameters<typeof Type.String>[0] = {}) =>
  Type.Union([Type.Null(), Type.String(options)]);
const Social = ClearableString({ maxLength: 500 });

/** Profile fields a user may change on themselves. Unknown fields (email among them) are dropped by Ajv. */
export const UpdateSelfBody = Type.Object({
  first_name: Type.Optional(Type.String({ maxLength: 200 })),
  last_name: Type.Optional(Type.String({ maxLength: 200 })),
  username: Type.Optional(ClearableString({ minLength: 1, maxLength: 100 })),
  phone_number: Type.Optional(
    // "" clears the field as null does (self.service.ts), so the pattern admits it.
    ClearableString({ pattern: '^(?:\\+[1-9]\\d{6,14})?$', description: 'E.164: + and 7 to 15 digits; "" clears it' }),
  ),
  email_signature: Type.Optional(Type.String({ maxLength: 20000 })),
  bio: Type.Optional(Type.String({ maxLength: 20000 })),
  website: Type.Optional(Social),
  instagram: Type.Optional(Social),
  twitter: Type.Optional(Social),
  linkedin: Type.Optional(Social),
  youtube: Type.Optional(Social),
  facebook: Type.Optional(Social),
  tiktok: Type.Optional(Social),
  designation: Type.Optional(Social),
  timezone: Type.Optional(
    Type.String({
      format: 'iana-time-zone',
      description: 'IANA time zone name (or a link of one), e.g. America/Chicago',
    }),
  ),
  daily_enabled: Type.Optional(Type.Boolean()),
  push_allowed: Type.Optional(Type.Boolean()),
});
export type UpdateSelfBody = Static<typeof UpdateSelfBody>;

export const ChangePasswordBody = Type.Object({
  old_password: Type.String(),
  new_password: Type.String(),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;
