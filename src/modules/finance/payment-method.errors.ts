import { defineErrors } from '../../platform/http/errors.ts'

export const paymentMethodErrors = defineErrors({
  payment_method_not_found: { status: 404, title: 'Payment method not found' },
  payment_method_invalid: { status: 422, title: 'The payment method cannot be taken as submitted' },
})
