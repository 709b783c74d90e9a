// HTTP shapes of webhooks (docs/webhooks.md): subscriptions (the secret only in the answer that
// creates or rotates it) and the delivery log.
import { Type } from 'typebox'
import { DateTime, enumOf, IdFilter, IntegerId, nullable, PagedQuery } from '../../platform/http/schemas.ts'

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const

export const SubscriptionIdParams = Type.Object({ subscriptionId: IntegerId('Webhook subscription id') })
export const DeliveryIdParams = Type.Object({ deliveryId: IntegerId('Webhook delivery id') })

// The URL's length and scheme are checked by the service, so that a bad one is a 422 naming `url`;
// the schema only bounds what is read.
const Url = Type.String({
  minLength: 1,
  maxLength: 10_000,
  description:
    'The receiver: http or https, at most 2,000 characters. Loopback and private addresses only when the operator allows them (WEBHOOKS_ALLOW_PRIVATE).',
  examples: ['https://hooks.example.com/vpp'],
})
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: "Event types delivered (docs/events.md), or ['*'] for every type.",
  examples: [['contract.finalized', 'contract.cancelled']],
})
const Description = nullable(Type.String({ maxLength: 1000 }), 'What the receiver is, for people.')

export const SubscriptionBodySchema = Type.Object(
  {
    url: Url,
    eventTypes: EventTypes,
    description: Type.Optional(Description),
    active: Type.Optional(
      Type.Boolean({ description: 'Inactive: no new deliveries, pending ones wait. Default true.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://hooks.example.com/vpp',
        eventTypes: ['contract.finalized', 'contract.cancelled'],
        description: 'Dealer portal sync',
      },
    ],
  },
)

export const SubscriptionPatchSchema = Type.Object(
  {
    url: Type.Optional(Url),
    eventTypes: Type.Optional(EventTypes),
    description: Type.Optional(Description),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ active: false }] },
)

const subscriptionProperties = {
  id: Type.Integer(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  description: nullable(Type.String()),
  active: Type.Boolean(),
  createdAt: DateTime('When created.'),
  updatedAt: DateTime('When last changed.'),
}
const subscriptionExample = {
  id: 12,
  url: 'https://hooks.example.com/vpp',
  eventTypes: ['contract.finalized', 'contract.cancelled'],
  description: 'Dealer portal sync',
  active: true,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
}

export const SubscriptionSchema = Type.Object(subscriptionProperties, {
  $id: 'WebhookSubscription',
  description: 'A webhook subscription. Its secret is never part of it: it is shown once, when created or rotated.',
  examples: [subscriptionExample],
})

const SECRET_EXAMPLE = 'whsec_q3l1Y0dYzH1s4b2aFv8WkQ0m9Tn6Xc7Rp5Ju2Eo4Iw8'
export const CreatedSubscriptionSchema = Type.Object(
  {
    ...subscriptionProperties,
    secret: Type.String({
      description: 'The signing secret (HMAC-SHA256 key of Webhook-Signature). Shown here only: store it now.',
    }),
  },
  { $id: 'CreatedWebhookSubscription', examples: [{ ...subscriptionExample, secret: SECRET_EXAMPLE }] },
)

export const RotatedSecretSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The subscription.' }),
    secret: Type.String({ description: 'The new signing secret, shown here only; the old one no longer signs.' }),
  },
  { $id: 'WebhookSecret', examples: [{ id: 12, secret: SECRET_EXAMPLE }] },
)

export const DeliverySchema = Type.Object(
  {
    id: Type.Integer(),
    subscriptionId: Type.Integer(),
    eventId: Type.String({ description: 'The event (Webhook-Id header and body id).' }),
    eventType: Type.String(),
    contractId: nullable(Type.String(), 'The contract the event is about: deliveries of one contract keep its order.'),
    status: enumOf(DELIVERY_STATUSES, 'PENDING until SUCCEEDED (a 2xx answer) or FAILED (webhookRetryLimit attempts).'),
    attempts: Type.Integer({ description: 'Attempts made, redeliveries included.' }),
    lastAttemptAt: nullable(DateTime('When the last attempt started.')),
    lastResponseCode: nullable(Type.Integer({ description: "The receiver's HTTP status of the last attempt." })),
    lastLatencyMs: nullable(Type.Integer({ description: 'Duration of the last attempt, in milliseconds.' })),
    lastError: nullable(Type.String({ description: 'Why the last attempt failed.' })),
    nextAttemptAt: nullable(DateTime('When PENDING: when the next attempt is due.')),
    createdAt: DateTime('When the event was fanned out to the subscription.'),
    updatedAt: DateTime('When last changed.'),
  },
  {
    $id: 'WebhookDelivery',
    examples: [
      {
        id: 881,
        subscriptionId: 12,
        eventId: 'evt_40112',
        eventType: 'contract.finalized',
        contractId: '900123',
        status: 'PENDING',
        attempts: 2,
        lastAttemptAt: '2026-11-27T10:00:20.000Z',
        lastResponseCode: 503,
        lastLatencyMs: 41,
        lastError: 'receiver answered 503',
        nextAttemptAt: '2026-11-27T10:00:45.000Z',
        createdAt: '2026-11-27T10:00:00.000Z',
        updatedAt: '2026-11-27T10:00:20.000Z',
      },
    ],
  },
)

export const SubscriptionListQuerySchema = Type.Object({ ...PagedQuery }, { additionalProperties: false })

export const DeliveryListQuerySchema = Type.Object(
  {
    ...PagedQuery,
    subscriptionId: Type.Optional(IdFilter('Only deliveries to this subscription.')),
    status: Type.Optional(
      Type.Unsafe<(typeof DELIVERY_STATUSES)[number]>({
        type: 'string',
        enum: [...DELIVERY_STATUSES],
        maxLength: 20,
        description: 'Only deliveries in this status.',
      }),
    ),
    eventType: Type.Optional(Type.String({ maxLength: 100, description: 'Only events of this type.' })),
  },
  { additionalProperties: false },
)
