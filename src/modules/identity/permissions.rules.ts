// The permission catalogue and the default roles every tenant starts with (docs/permissions.md).
// A permission is `<area>:<verb>`; '*' (administrator only) stands for every permission.

export const PERMISSIONS = {
  'users:read': 'Read users (v1 and SCIM)',
  'users:write': 'Create and change users, their roles and groups; expire users',
  'membership:read': 'Read membership roles and groups',
  'settings:read': 'Read general settings',
  'settings:write': 'Change general settings',
  'audit:read': 'Read the audit trail',
  'accountholders:read': 'Read account holders (dealers, agents, customers, ...)',
  'accountholders:write': 'Create and change account holders',
  'bankdetails:read': 'See unmasked bank details of disbursement accounts',
  'rates:read': 'Read the rate catalogue and request rate quotes',
  'rates:write': 'Import rate books; change disbursements and dealer rate visibility',
  'rates:explain': 'See why plans were excluded from a quote',
  'contracts:read': 'Read contracts and their documents',
  'contracts:write': 'Create and change pending contracts',
  'contracts:finalize': 'Finalize and refinalize contracts; approve transfers; rerate contracts',
  'cancellations:read': 'Read cancel requests and cancels',
  'cancellations:write': 'Quote and request cancellations',
  'cancellations:approve': 'Approve and process cancellations',
  'claims:read': 'Read claims',
  'claims:write': 'Open and work claims',
  'claims:approve': 'Authorize, deny and pay claims',
  'finance:read': 'Read cash transactions and ledgers',
  'finance:write': 'Record and apply cash; request statements',
  'documents:read': 'Download documents and files',
  'documents:write': 'Upload documents and files',
  'processes:read': 'Read automatic process runs',
  'processes:run': 'Start automatic processes',
  'webhooks:read': 'Read webhook subscriptions and their deliveries (staff only)',
  'webhooks:write': 'Subscribe receivers to events, change and delete subscriptions, redeliver (staff only)',
  'reinsurance:read': 'Read reinsurance treaties and risk-bearer reports such as insurer bordereaux (staff only)',
  'reinsurance:write': 'Create, change and delete reinsurance treaties (staff only)',
} as const

export type Permission = keyof typeof PERMISSIONS

const ALL = Object.keys(PERMISSIONS) as Permission[]
const reads = ALL.filter((p) => p.endsWith(':read') && p !== 'bankdetails:read')

export type RoleTemplate = { code: string; name: string; description: string; permissions: readonly string[] }

export const DEFAULT_ROLES: readonly RoleTemplate[] = [
  {
    code: 'ADMINISTRATOR',
    name: 'Administrator',
    description: 'Every permission, including granting any role.',
    permissions: ['*'],
  },
  {
    code: 'USER_ADMINISTRATOR',
    name: 'User administrator',
    description: 'Manages users, their roles and groups.',
    permissions: ['users:read', 'users:write', 'membership:read', 'settings:read', 'audit:read'],
  },
  {
    code: 'CONTRACT_ADMINISTRATOR',
    name: 'Contract administrator',
    description: 'Sells, corrects, finalizes and cancels contracts.',
    permissions: [
      'accountholders:read',
      'rates:read',
      'rates:explain',
      'contracts:read',
      'contracts:write',
      'contracts:finalize',
      'cancellations:read',
      'cancellations:write',
      'cancellations:approve',
      'documents:read',
      'documents:write',
      'settings:read',
      'membership:read',
    ],
  },
  {
    code: 'CLAIMS_ADJUSTER',
    name: 'Claims adjuster',
    description: 'Works, authorizes and pays claims.',
    permissions: [
      'accountholders:read',
      'contracts:read',
      'claims:read',
      'claims:write',
      'claims:approve',
      'documents:read',
      'documents:write',
      'settings:read',
    ],
  },
  {
    code: 'ACCOUNTING',
    name: 'Accounting',
    description: 'Cash, ledgers, statements and bank details.',
    permissions: [
      'accountholders:read',
      'bankdetails:read',
      'contracts:read',
      'cancellations:read',
      'claims:read',
      'finance:read',
      'finance:write',
      'processes:read',
      'processes:run',
      'settings:read',
      'documents:read',
      'reinsurance:read',
      'reinsurance:write',
    ],
  },
  {
    code: 'DEALER_USER',
    name: 'Dealer user',
    description: "A dealer's F&I staff or menu system: quotes and sells for the dealers of its groups.",
    permissions: [
      'accountholders:read',
      'rates:read',
      'contracts:read',
      'contracts:write',
      'cancellations:read',
      'cancellations:write',
      'documents:read',
      'documents:write',
    ],
  },
  {
    code: 'READ_ONLY',
    name: 'Read-only',
    description: 'Reads everything except bank details; changes nothing.',
    permissions: reads,
  },
]

export const DEFAULT_GROUPS = [
  {
    code: 'STAFF',
    name: 'Administrator staff',
    description: 'Staff of the product administrator; sees every dealer.',
    kind: 'STAFF' as const,
  },
]

/** True when `held` includes every permission in `wanted` ('*' holds everything). */
export function holdsAll(held: ReadonlySet<string>, wanted: Iterable<string>): boolean {
  if (held.has('*')) return true
  for (const p of wanted) if (!held.has(p)) return false
  return true
}

/** The permissions in `wanted` that `held` lacks ('*' lacks everything but '*'). */
export function missingPermissions(held: ReadonlySet<string>, wanted: Iterable<string>): string[] {
  if (held.has('*')) return []
  return [...new Set(wanted)].filter((p) => !held.has(p))
}
