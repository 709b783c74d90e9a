// The kinds of account holder (docs/parties.md) as the console shows them: the console path of each
// kind, its business key, its own fields (for the record's page and its form), and the typed API
// calls of its collection (read, create, change). One table, so that every screen treats every kind
// the same way.
import { api, unwrap } from '../api/client.ts'
import type { operations, Schemas } from '../api/types.ts'

export type Kind = Schemas['AccountHolderSummary']['kind']
export type Holder =
  | Schemas['Dealer']
  | Schemas['DealerGroup']
  | Schemas['Agent']
  | Schemas['Customer']
  | Schemas['Insurer']
  | Schemas['LienHolder']
  | Schemas['RepairFacility']
  | Schemas['InspectionCompany']
  | Schemas['ClaimPayee']
  | Schemas['ReinsuranceCompany']
  | Schemas['AdminCompany']

/** How a field of the form is typed in and sent: text as it is, numbers, lists split at commas, a yes/no. */
export type FieldType = 'text' | 'select' | 'integer' | 'integers' | 'amount' | 'strings' | 'boolean'
/** `of`: an integer field naming an account holder of that kind, chosen from the API's list of them. */
export type OwnField = {
  name: string
  label: string
  type: FieldType
  options?: readonly string[]
  maxLength?: number
  of?: Kind
}

export const STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA',
  'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP',
] as const // prettier-ignore

type Body = Record<string, unknown>
type CreateBody<O extends keyof operations> =
  NonNullable<operations[O]['requestBody']> extends {
    content: { 'application/json': infer B }
  }
    ? B
    : never
type Api = {
  get: (id: number) => Promise<Holder>
  create?: (body: Body) => Promise<Holder>
  patch?: (id: number, body: Body) => Promise<Holder>
}

export type KindInfo = {
  kind: Kind
  slug: string
  label: string
  one: string
  /** The business key's member and label (none for customers). */
  key?: { name: string; label: string }
  own: readonly OwnField[]
  /** Custom fields live under the kind's collection (agents, dealer groups, dealers). */
  customFields: boolean
  api: Api
}

const merge = { 'Content-Type': 'application/merge-patch+json' }

export const KINDS: readonly KindInfo[] = [
  {
    kind: 'DEALER',
    slug: 'dealers',
    label: 'Dealers',
    one: 'Dealer',
    key: { name: 'dealerNumber', label: 'Dealer number' },
    own: [
      {
        name: 'dealerType',
        label: 'Dealer type',
        type: 'select',
        options: ['FRANCHISE', 'INDEPENDENT', 'BUY_HERE_PAY_HERE', 'RV_MARINE', 'POWERSPORTS'],
      },
      { name: 'franchiseMakes', label: 'Franchise makes (comma-separated)', type: 'strings' },
      { name: 'licenseNumber', label: 'License number', type: 'text', maxLength: 60 },
      { name: 'dealerGroupId', label: 'Dealer group', type: 'integer', of: 'DEALER_GROUP' },
      { name: 'agentIds', label: 'Agent ids (comma-separated)', type: 'integers' },
    ],
    customFields: true,
    api: {
      get: async (dealerId) => unwrap(await api.GET('/api/dealers/{dealerId}', { params: { path: { dealerId } } })),
      create: async (body) => unwrap(await api.POST('/api/dealers', { body: body as CreateBody<'createDealer'> })),
      patch: async (dealerId, body) =>
        unwrap(await api.PATCH('/api/dealers/{dealerId}', { params: { path: { dealerId } }, body, headers: merge })),
    },
  },
  {
    kind: 'DEALER_GROUP',
    slug: 'dealergroups',
    label: 'Dealer groups',
    one: 'Dealer group',
    key: { name: 'groupCode', label: 'Group code' },
    own: [],
    customFields: true,
    api: {
      get: async (dealerGroupId) =>
        unwrap(await api.GET('/api/dealergroups/{dealerGroupId}', { params: { path: { dealerGroupId } } })),
      create: async (body) =>
        unwrap(await api.POST('/api/dealergroups', { body: body as CreateBody<'createDealerGroup'> })),
      patch: async (dealerGroupId, body) =>
        unwrap(
          await api.PATCH('/api/dealergroups/{dealerGroupId}', {
            params: { path: { dealerGroupId } },
            body,
            headers: merge,
          }),
        ),
    },
  },
  {
    kind: 'AGENT',
    slug: 'agents',
    label: 'Agents',
    one: 'Agent',
    key: { name: 'agentCode', label: 'Agent code' },
    own: [
      { name: 'licenseNumber', label: 'License number', type: 'text', maxLength: 60 },
      { name: 'licensedStates', label: 'Licensed states (comma-separated)', type: 'strings' },
    ],
    customFields: true,
    api: {
      get: async (agentId) => unwrap(await api.GET('/api/agents/{agentId}', { params: { path: { agentId } } })),
      create: async (body) => unwrap(await api.POST('/api/agents', { body: body as CreateBody<'createAgent'> })),
      patch: async (agentId, body) =>
        unwrap(await api.PATCH('/api/agents/{agentId}', { params: { path: { agentId } }, body, headers: merge })),
    },
  },
  {
    kind: 'CUSTOMER',
    slug: 'customers',
    label: 'Customers',
    one: 'Customer',
    own: [
      { name: 'firstName', label: 'First name', type: 'text' },
      { name: 'middleInitial', label: 'Middle initial', type: 'text', maxLength: 1 },
      { name: 'lastName', label: 'Last name', type: 'text' },
      { name: 'companyName', label: 'Company name', type: 'text' },
      { name: 'dealerId', label: 'Dealer id', type: 'integer' },
    ],
    customFields: false,
    api: {
      get: async (customerId) =>
        unwrap(await api.GET('/api/customers/{customerId}', { params: { path: { customerId } } })),
      patch: async (customerId, body) =>
        unwrap(
          await api.PATCH('/api/customers/{customerId}', { params: { path: { customerId } }, body, headers: merge }),
        ),
    },
  },
  {
    kind: 'INSURER',
    slug: 'insurers',
    label: 'Insurers',
    one: 'Insurer',
    key: { name: 'insurerCode', label: 'Insurer code' },
    own: [
      { name: 'naicCode', label: 'NAIC code', type: 'text', maxLength: 5 },
      { name: 'amBestRating', label: 'AM Best rating', type: 'text' },
    ],
    customFields: false,
    api: {
      get: async (insurerId) => unwrap(await api.GET('/api/insurers/{insurerId}', { params: { path: { insurerId } } })),
      create: async (body) => unwrap(await api.POST('/api/insurers', { body: body as CreateBody<'createInsurer'> })),
      patch: async (insurerId, body) =>
        unwrap(await api.PATCH('/api/insurers/{insurerId}', { params: { path: { insurerId } }, body, headers: merge })),
    },
  },
  {
    kind: 'LIEN_HOLDER',
    slug: 'lienholders',
    label: 'Lien holders',
    one: 'Lien holder',
    key: { name: 'lienHolderCode', label: 'Lien holder code' },
    own: [
      { name: 'eltNumber', label: 'ELT number', type: 'text' },
      { name: 'payoffPhone', label: 'Payoff phone', type: 'text' },
    ],
    customFields: false,
    api: {
      get: async (lienHolderId) =>
        unwrap(await api.GET('/api/lienHolders/{lienHolderId}', { params: { path: { lienHolderId } } })),
      create: async (body) =>
        unwrap(await api.POST('/api/lienHolders', { body: body as CreateBody<'createLienHolder'> })),
      patch: async (lienHolderId, body) =>
        unwrap(
          await api.PATCH('/api/lienHolders/{lienHolderId}', {
            params: { path: { lienHolderId } },
            body,
            headers: merge,
          }),
        ),
    },
  },
  {
    kind: 'REPAIR_FACILITY',
    slug: 'repairfacilities',
    label: 'Repair facilities',
    one: 'Repair facility',
    key: { name: 'facilityCode', label: 'Facility code' },
    own: [
      {
        name: 'facilityType',
        label: 'Facility type',
        type: 'select',
        options: ['DEALER', 'INDEPENDENT', 'FLEET', 'MOBILE'],
      },
      { name: 'laborRate', label: 'Labor rate', type: 'amount' },
      { name: 'aseCertified', label: 'ASE certified', type: 'boolean' },
    ],
    customFields: false,
    api: {
      get: async (repairFacilityId) =>
        unwrap(await api.GET('/api/repairfacilities/{repairFacilityId}', { params: { path: { repairFacilityId } } })),
      create: async (body) =>
        unwrap(await api.POST('/api/repairfacilities', { body: body as CreateBody<'createRepairFacility'> })),
      patch: async (repairFacilityId, body) =>
        unwrap(
          await api.PATCH('/api/repairfacilities/{repairFacilityId}', {
            params: { path: { repairFacilityId } },
            body,
            headers: merge,
          }),
        ),
    },
  },
  {
    kind: 'INSPECTION_COMPANY',
    slug: 'inspectioncompanies',
    label: 'Inspection companies',
    one: 'Inspection company',
    key: { name: 'companyCode', label: 'Company code' },
    own: [
      { name: 'serviceStates', label: 'Service states (comma-separated)', type: 'strings' },
      { name: 'inspectionFee', label: 'Inspection fee', type: 'amount' },
    ],
    customFields: false,
    api: {
      get: async (inspectionCompanyId) =>
        unwrap(
          await api.GET('/api/inspectioncompanies/{inspectionCompanyId}', {
            params: { path: { inspectionCompanyId } },
          }),
        ),
      create: async (body) =>
        unwrap(await api.POST('/api/inspectioncompanies', { body: body as CreateBody<'createInspectionCompany'> })),
      patch: async (inspectionCompanyId, body) =>
        unwrap(
          await api.PATCH('/api/inspectioncompanies/{inspectionCompanyId}', {
            params: { path: { inspectionCompanyId } },
            body,
            headers: merge,
          }),
        ),
    },
  },
  {
    kind: 'CLAIM_PAYEE',
    slug: 'claimpayees',
    label: 'Claim payees',
    one: 'Claim payee',
    key: { name: 'payeeCode', label: 'Payee code' },
    own: [
      {
        name: 'payeeType',
        label: 'Payee type',
        type: 'select',
        options: ['REPAIR_FACILITY', 'CUSTOMER', 'DEALER', 'RENTAL', 'TOWING', 'OTHER'],
      },
      { name: 'relatedAccountHolderId', label: 'Related account holder id', type: 'integer' },
    ],
    customFields: false,
    api: {
      get: async (claimPayeeId) =>
        unwrap(await api.GET('/api/claimpayees/{claimPayeeId}', { params: { path: { claimPayeeId } } })),
      create: async (body) =>
        unwrap(await api.POST('/api/claimpayees', { body: body as CreateBody<'createClaimPayee'> })),
      patch: async (claimPayeeId, body) =>
        unwrap(
          await api.PATCH('/api/claimpayees/{claimPayeeId}', {
            params: { path: { claimPayeeId } },
            body,
            headers: merge,
          }),
        ),
    },
  },
  {
    kind: 'REINSURANCE_COMPANY',
    slug: 'reinsurancecompanies',
    label: 'Reinsurance companies',
    one: 'Reinsurance company',
    key: { name: 'companyCode', label: 'Company code' },
    own: [
      { name: 'domicile', label: 'Domicile', type: 'text', maxLength: 60 },
      { name: 'naicCode', label: 'NAIC code', type: 'text', maxLength: 5 },
    ],
    customFields: false,
    api: {
      get: async (reinsuranceCompanyId) =>
        unwrap(
          await api.GET('/api/reinsurancecompanies/{reinsuranceCompanyId}', {
            params: { path: { reinsuranceCompanyId } },
          }),
        ),
      create: async (body) =>
        unwrap(await api.POST('/api/reinsurancecompanies', { body: body as CreateBody<'createReinsuranceCompany'> })),
      patch: async (reinsuranceCompanyId, body) =>
        unwrap(
          await api.PATCH('/api/reinsurancecompanies/{reinsuranceCompanyId}', {
            params: { path: { reinsuranceCompanyId } },
            body,
            headers: merge,
          }),
        ),
    },
  },
  {
    kind: 'ADMIN_COMPANY',
    slug: 'admincompanies',
    label: 'Administrator company',
    one: 'Administrator company',
    key: { name: 'companyCode', label: 'Company code' },
    own: [{ name: 'obligorLicense', label: 'Obligor license', type: 'text' }],
    customFields: false,
    api: {
      get: async (adminCompanyId) =>
        unwrap(await api.GET('/api/admincompanies/{adminCompanyId}', { params: { path: { adminCompanyId } } })),
    },
  },
]

export const kindBySlug = (slug: string) => KINDS.find((k) => k.slug === slug)
export const kindOf = (kind: string) => KINDS.find((k) => k.kind === kind)
export const holderPath = (kind: string, id: number) => `/accountholders/${kindOf(kind)?.slug ?? 'dealers'}/${id}`
export const words = (s: string) => s.toLowerCase().replaceAll('_', ' ')
