// General settings: typed, per-tenant values with catalogue defaults (docs/settings.md). Other
// modules read a value with `service.get(tenantId, key)`; the operator CLI uses the *ForOperator
// methods. Nothing else in this folder is importable.
import type { FastifyInstance } from 'fastify'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { settingsRoutes } from './settings.routes.ts'
import { createSettingsService } from './settings.service.ts'

export {
  SETTINGS,
  SETTING_GROUPS,
  SETTING_TYPES,
  type SettingDefinition,
  type SettingGroupCode,
  type SettingId,
  type SettingJson,
  type SettingKey,
  type SettingType,
} from './settings.catalog.ts'
export { SettingsOperatorError } from './settings.errors.ts'
export type { SettingConstraints, SettingGroupView, SettingView } from './settings.mapper.ts'
export {
  contractNumberFormatProblem,
  formatContractNumber,
  type SettingDuration,
  type SettingValue,
} from './settings.rules.ts'
export { SETTINGS_TOPIC, type SettingsService, type VersionCheck } from './settings.service.ts'

export type SettingsDeps = { db: Database; clock: Clock; bus: InvalidationBus }

export function createSettingsModule(deps: SettingsDeps) {
  const service = createSettingsService(deps)
  return {
    service,
    async routes(app: FastifyInstance) {
      await app.register(settingsRoutes, { settings: service })
    },
  }
}

export type SettingsModule = ReturnType<typeof createSettingsModule>
