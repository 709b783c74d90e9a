// Demo data for the demo tenant: a realistic set of parties. Filled in by the demo-data work.
import type { Database } from '../../platform/db/database.ts'
import type { Clock } from '../../platform/clock.ts'
import type { AccountHolderService } from './account-holder.service.ts'

export async function seedDemoParties(_deps: { db: Database; clock: Clock }, _service: AccountHolderService, _tenantId: number): Promise<void> {}
