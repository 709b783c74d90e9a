// Webhooks over HTTP (docs/webhooks.md): subscriptions and the delivery log. Reads webhooks:read,
// writes webhooks:write; staff only (the service refuses dealer-side users). No route delivers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { EmptyBody, noBodyIsEmpty, Paged, problemResponses } from '../../platform/http/schemas.ts'
import type { Deliverer } from './webhooks.deliverer.ts'
import {
  CreatedSubscriptionSchema,
  DeliveryIdParams,
  DeliveryListQuerySchema,
  DeliverySchema,
  RotatedSecretSchema,
  SubscriptionBodySchema,
  SubscriptionIdParams,
  SubscriptionListQuerySchema,
  SubscriptionPatchSchema,
  SubscriptionSchema,
} from './webhooks.schemas.ts'
import type { WebhookService } from './webhooks.service.ts'

const TAGS = ['Webhooks']
const READ = { permission: 'webhooks:read' } as const
const WRITE = { permission: 'webhooks:write' } as const
const subscriptionRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'WebhookSubscription#' })
const deliveryRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'WebhookDelivery#' })
const STAFF = '403 permission_denied for dealer-side users, whatever their roles.'
const BAD_INPUT =
  '422 webhook_subscription_invalid names each bad field: url not http(s), longer than 2,000 characters, with credentials, or a loopback/private address (unless the operator allows them); eventTypes empty, not <entity>.<event>, repeated, or * with others.'

export const webhookRoutes: FastifyPluginAsyncTypebox<{ service: WebhookService; deliverer: Deliverer }> = async (
  app,
  { service, deliverer },
) => {
  app.addSchema(SubscriptionSchema)
  app.addSchema(CreatedSubscriptionSchema)
  app.addSchema(RotatedSecretSchema)
  app.addSchema(DeliverySchema)
  // The loop (started by the server) stops with the app, after the attempt in flight.
  app.addHook('onClose', async () => deliverer.stop())

  app.get(
    '/api/webhooks/subscriptions',
    {
      schema: {
        tags: TAGS,
        operationId: 'listWebhookSubscriptions',
        summary: 'List webhook subscriptions (paged)',
        description: `Oldest first; deleted ones are not listed. Secrets are never shown. ${STAFF}`,
        querystring: SubscriptionListQuerySchema,
        response: { 200: Paged(subscriptionRef, 'WebhookSubscriptions'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const window = pageWindow(req.query)
      const r = await service.list(authenticatedContext(req), window)
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.post(
    '/api/webhooks/subscriptions',
    {
      schema: {
        tags: TAGS,
        operationId: 'createWebhookSubscription',
        summary: 'Subscribe a receiver to events',
        description: `201 with the subscription and its signing secret, which is shown this once (rotate it with createWebhookSubscriptionSecret). The receiver gets the events of changes made from now on. ${BAD_INPUT} ${STAFF}`,
        body: SubscriptionBodySchema,
        response: { 201: Type.Unsafe({ $ref: 'CreatedWebhookSubscription#' }), ...problemResponses(422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const created = await service.create(authenticatedContext(req), req.body)
      res.code(201).header('location', `/api/webhooks/subscriptions/${created.id}`)
      return created
    },
  )

  app.get(
    '/api/webhooks/subscriptions/:subscriptionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getWebhookSubscription',
        summary: 'Read a webhook subscription (never its secret)',
        description: `404 for a deleted subscription or one of another tenant. ${STAFF}`,
        params: SubscriptionIdParams,
        response: { 200: subscriptionRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.get(authenticatedContext(req), req.params.subscriptionId),
  )

  app.patch(
    '/api/webhooks/subscriptions/:subscriptionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateWebhookSubscription',
        summary: 'Change a webhook subscription',
        description: `JSON Merge Patch of url, eventTypes, description, active. Inactive: no new deliveries and PENDING ones wait until it is active again. ${BAD_INPUT} ${STAFF}`,
        params: SubscriptionIdParams,
        body: SubscriptionPatchSchema,
        consumes: ['application/merge-patch+json', 'application/json'],
        response: { 200: subscriptionRef, ...problemResponses(404, 422) },
      },
      config: WRITE,
    },
    async (req) => service.patch(authenticatedContext(req), req.params.subscriptionId, req.body),
  )

  app.delete(
    '/api/webhooks/subscriptions/:subscriptionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteWebhookSubscription',
        summary: 'Delete a webhook subscription',
        description: `No further deliveries; its PENDING deliveries become FAILED; its delivery log stays readable. ${STAFF}`,
        params: SubscriptionIdParams,
        response: { 204: Type.Null(), ...problemResponses(404) },
      },
      config: WRITE,
    },
    async (req, res) => {
      await service.remove(authenticatedContext(req), req.params.subscriptionId)
      res.code(204)
    },
  )

  app.post(
    '/api/webhooks/subscriptions/:subscriptionId/secret',
    {
      schema: {
        tags: TAGS,
        operationId: 'createWebhookSubscriptionSecret',
        summary: "Rotate a subscription's signing secret",
        description: `201 with the new secret, shown this once; attempts from now on are signed with it. ${STAFF}`,
        params: SubscriptionIdParams,
        body: Type.Optional(EmptyBody),
        response: { 201: Type.Unsafe({ $ref: 'WebhookSecret#' }), ...problemResponses(404) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req, res) => {
      const rotated = await service.rotateSecret(authenticatedContext(req), req.params.subscriptionId)
      res.code(201)
      return rotated
    },
  )

  app.get(
    '/api/webhooks/deliveries',
    {
      schema: {
        tags: TAGS,
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log (paged)',
        description: `Newest first. Filters: subscriptionId, status (PENDING, SUCCEEDED, FAILED), eventType. ${STAFF}`,
        querystring: DeliveryListQuerySchema,
        response: { 200: Paged(deliveryRef, 'WebhookDeliveries'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const { subscriptionId, status, eventType } = req.query
      const window = pageWindow(req.query)
      const r = await service.deliveries.list(authenticatedContext(req), { subscriptionId, status, eventType }, window)
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.get(
    '/api/webhooks/deliveries/:deliveryId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getWebhookDelivery',
        summary: 'Read a delivery: status, attempts, last response code, latency, next attempt, last error',
        description: `404 for a delivery of another tenant. ${STAFF}`,
        params: DeliveryIdParams,
        response: { 200: deliveryRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.deliveries.get(authenticatedContext(req), req.params.deliveryId),
  )

  app.post(
    '/api/webhooks/deliveries/:deliveryId/redeliveries',
    {
      schema: {
        tags: TAGS,
        operationId: 'createWebhookDeliveryRedelivery',
        summary: 'Deliver an event again',
        description: `202 with the delivery PENDING and due now: the deliverer makes the attempt out of band (the same event id, a new timestamp and signature), and webhookRetryLimit attempts are allowed again. 422 webhook_subscription_invalid when its subscription is deleted. ${STAFF}`,
        params: DeliveryIdParams,
        body: Type.Optional(EmptyBody),
        response: { 202: deliveryRef, ...problemResponses(404, 422) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req, res) => {
      const delivery = await service.deliveries.redeliver(authenticatedContext(req), req.params.deliveryId)
      res.code(202).header('location', `/api/webhooks/deliveries/${delivery.id}`)
      return delivery
    },
  )
}
