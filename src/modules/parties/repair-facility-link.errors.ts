import { defineErrors } from '../../platform/http/errors.ts'

export const repairFacilityLinkErrors = defineErrors({
  repair_facility_link_limit: { status: 422, title: 'Too many linked account holders' },
})
