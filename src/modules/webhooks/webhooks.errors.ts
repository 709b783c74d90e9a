import { defineErrors } from '../../platform/http/errors.ts'

export const webhookErrors = defineErrors({
  webhook_subscription_not_found: { status: 404, title: 'Webhook subscription not found' },
  webhook_delivery_not_found: { status: 404, title: 'Webhook delivery not found' },
  webhook_subscription_invalid: { status: 422, title: 'The webhook subscription cannot be taken as submitted' },
})
