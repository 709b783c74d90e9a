import type { UserDto } from './user.schemas.ts'
import type { UserRow } from './user.repository.ts'
import { isActive } from './user.rules.ts'

export function toUserDto(row: UserRow, now: Date): UserDto {
  return {
    id: row.id,
    userName: row.email_address,
    emailAddress: row.email_address,
    firstName: row.first_name,
    lastName: row.last_name,
    phoneNumber: row.phone_number,
    externalIdentity: row.external_identity,
    expiredDate: row.expired_date ? row.expired_date.toISOString() : null,
    isActive: isActive(row.expired_date, now),
    accountHolderId: row.account_holder_id,
    roles: row.roles.map((r) => ({ id: Number(r.id), name: r.name })),
    groups: row.groups.map((g) => ({ id: Number(g.id), name: g.name })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  }
}
