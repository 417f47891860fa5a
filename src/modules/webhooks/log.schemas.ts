// Wire shapes of the delivery log and the webhook actions (docs/webhooks.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, PagingQuery, Uuid } from '../../platform/schemas.js';

export const DeliveryParams = Type.Object({ id: Uuid, wid: Uuid, did: Uuid });
export const DeliveryLogQuery = Type.Object({ ...PagingQuery });
export type DeliveryLogQuery = Static<typeof DeliveryLogQuery>;

export const AttemptRecord = Type.Object({
  attempt: Type.Integer(),
  at: EpochSeconds,
  http_status: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(
    Type.String({ description: 'timeout, refused_address, network, too_large… when no HTTP answer came' }),
  ),
  response: Nullable(Type.String({ description: 'The first 1 KiB of the response body' })),
});

export const DeliveryRecord = Type.Object({
  id: Uuid,
  webhook: Uuid,
  topic: Type.String(),
  event: Type.String(),
  status: Type.String({ description: 'pending, delivered, failed or dropped' }),
  attempts: Type.Array(AttemptRecord),
  next_attempt_at: Nullable(EpochSeconds),
  created_at: EpochSeconds,
  delivered_at: Nullable(EpochSeconds),
  type: Type.Literal('webhook_delivery'),
});
export type DeliveryRecord = Static<typeof DeliveryRecord>;
