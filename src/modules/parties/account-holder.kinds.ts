// The kinds of account holder: what each calls its business key, where it lives in the API, and the
// data only it has. The supertype (names, status, contacts, tax id) is shared; see
// account-holder.schemas.ts.
import { Type, type TProperties } from 'typebox'
import type { AccountHolderKind } from '../../platform/db/schema.ts'

export type KindDefinition = {
  kind: AccountHolderKind
  /** Collection path under /api, as the catalogue spells it. */
  path: string
  /** Path parameter name of one record, as the catalogue spells it. */
  idParam: string
  noun: string
  tag: string
  /** API name of the business key; absent for kinds that have none (customers). */
  businessKeyField?: string
  businessKeyDescription?: string
  /** Records of this kind can lack the key: those contracts create inline (lien holders named on a deal). */
  businessKeyNullable?: boolean
  /** Kind-specific fields stored in `details`. */
  details: TProperties
  /** Created by POST on the collection; customers are created by contracts instead. */
  creatable: boolean
  example: Record<string, unknown>
}

const money = (description: string) => Type.Number({ minimum: 0, maximum: 100000, multipleOf: 0.01, description })
const stateList = (description: string) =>
  Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { maxItems: 60, uniqueItems: true, description })

export const KINDS: Record<Exclude<AccountHolderKind, 'ADMIN_COMPANY'>, KindDefinition> = {
  DEALER: {
    kind: 'DEALER',
    path: '/api/dealers',
    idParam: 'dealerId',
    noun: 'dealer',
    tag: 'Dealers',
    businessKeyField: 'dealerNumber',
    businessKeyDescription: 'The dealer number: the key dealer menus quote with.',
    details: {
      dealerType: Type.Optional(
        Type.Union(
          [
            Type.Literal('FRANCHISE'),
            Type.Literal('INDEPENDENT'),
            Type.Literal('BUY_HERE_PAY_HERE'),
            Type.Literal('RV_MARINE'),
            Type.Literal('POWERSPORTS'),
          ],
          { description: 'Kind of dealership.' },
        ),
      ),
      franchiseMakes: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
          maxItems: 40,
          description: 'Makes the dealer holds franchises for.',
        }),
      ),
      licenseNumber: Type.Optional(Type.String({ maxLength: 40, description: 'State dealer licence number.' })),
    },
    creatable: true,
    example: {
      dealerNumber: '10045',
      legalName: 'Main Street Motors LLC',
      displayName: 'Main St Honda',
      dealerType: 'FRANCHISE',
      franchiseMakes: ['HONDA'],
    },
  },
  DEALER_GROUP: {
    kind: 'DEALER_GROUP',
    path: '/api/dealergroups',
    idParam: 'dealerGroupId',
    noun: 'dealer group',
    tag: 'Dealer groups',
    businessKeyField: 'groupCode',
    businessKeyDescription: 'Code of the dealer group.',
    details: {},
    creatable: true,
    example: { groupCode: 'LONESTAR', legalName: 'Lone Star Automotive Group, Inc.' },
  },
  AGENT: {
    kind: 'AGENT',
    path: '/api/agents',
    idParam: 'agentId',
    noun: 'agent',
    tag: 'Agents',
    businessKeyField: 'agentCode',
    businessKeyDescription: 'Code of the agent (agency).',
    details: {
      licenseNumber: Type.Optional(Type.String({ maxLength: 40, description: 'Producer licence number.' })),
      licensedStates: Type.Optional(stateList('States where the agent is licensed.')),
    },
    creatable: true,
    example: { agentCode: 'AG-100', legalName: 'Acme Agency LLC', licensedStates: ['TX', 'OK'] },
  },
  CUSTOMER: {
    kind: 'CUSTOMER',
    path: '/api/customers',
    idParam: 'customerId',
    noun: 'customer',
    tag: 'Customers',
    details: {
      firstName: Type.Optional(Type.String({ maxLength: 60 })),
      middleInitial: Type.Optional(Type.String({ maxLength: 1 })),
      lastName: Type.Optional(Type.String({ maxLength: 60 })),
      companyName: Type.Optional(Type.String({ maxLength: 120 })),
      dealerId: Type.Optional(Type.Integer({ minimum: 1, description: 'The dealer that sold to this customer.' })),
    },
    creatable: false,
    example: { legalName: 'Sam J Buyer', firstName: 'Sam', middleInitial: 'J', lastName: 'Buyer' },
  },
  INSURER: {
    kind: 'INSURER',
    path: '/api/insurers',
    idParam: 'insurerId',
    noun: 'insurer',
    tag: 'Insurers',
    businessKeyField: 'insurerCode',
    businessKeyDescription: 'Code of the insurer.',
    details: {
      naicCode: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', description: 'NAIC company code.' })),
      amBestRating: Type.Optional(Type.String({ maxLength: 5, description: 'A.M. Best financial strength rating.' })),
    },
    creatable: true,
    example: {
      insurerCode: 'INS1',
      legalName: 'Frontier Casualty Insurance Company',
      naicCode: '12345',
      amBestRating: 'A-',
    },
  },
  LIEN_HOLDER: {
    kind: 'LIEN_HOLDER',
    path: '/api/lienHolders',
    idParam: 'lienHolderId',
    noun: 'lien holder',
    tag: 'Lien holders',
    businessKeyField: 'lienHolderCode',
    businessKeyDescription: 'Code of the lien holder (lender).',
    businessKeyNullable: true,
    details: {
      eltNumber: Type.Optional(
        Type.String({ maxLength: 20, description: 'Electronic lien and title participant number.' }),
      ),
      payoffPhone: Type.Optional(Type.String({ maxLength: 30, description: 'Phone for payoff quotes.' })),
    },
    creatable: true,
    example: { lienHolderCode: 'FNB', legalName: 'First National Bank', eltNumber: 'E1234' },
  },
  REPAIR_FACILITY: {
    kind: 'REPAIR_FACILITY',
    path: '/api/repairfacilities',
    idParam: 'repairFacilityId',
    noun: 'repair facility',
    tag: 'Repair facilities',
    businessKeyField: 'facilityCode',
    businessKeyDescription: 'Code of the repair facility.',
    details: {
      facilityType: Type.Optional(
        Type.Union([
          Type.Literal('DEALER'),
          Type.Literal('INDEPENDENT'),
          Type.Literal('FLEET'),
          Type.Literal('MOBILE'),
        ]),
      ),
      laborRate: Type.Optional(money('Posted retail labour rate per hour.')),
      aseCertified: Type.Optional(Type.Boolean({ description: 'Technicians hold ASE certification.' })),
    },
    creatable: true,
    example: {
      facilityCode: 'RF-77',
      legalName: 'Precision Auto Repair LLC',
      facilityType: 'INDEPENDENT',
      laborRate: 135,
    },
  },
  INSPECTION_COMPANY: {
    kind: 'INSPECTION_COMPANY',
    path: '/api/inspectioncompanies',
    idParam: 'inspectionCompanyId',
    noun: 'inspection company',
    tag: 'Inspection companies',
    businessKeyField: 'companyCode',
    businessKeyDescription: 'Code of the inspection company.',
    details: {
      serviceStates: Type.Optional(stateList('States where the company inspects.')),
      inspectionFee: Type.Optional(money('Standard fee per inspection.')),
    },
    creatable: true,
    example: {
      companyCode: 'WIS',
      legalName: 'Wide Inspection Services, Inc.',
      serviceStates: ['TX'],
      inspectionFee: 95,
    },
  },
  CLAIM_PAYEE: {
    kind: 'CLAIM_PAYEE',
    path: '/api/claimpayees',
    idParam: 'claimPayeeId',
    noun: 'claim payee',
    tag: 'Claim payees',
    businessKeyField: 'payeeCode',
    businessKeyDescription: 'Code of the claim payee.',
    details: {
      payeeType: Type.Optional(
        Type.Union([
          Type.Literal('REPAIR_FACILITY'),
          Type.Literal('CUSTOMER'),
          Type.Literal('DEALER'),
          Type.Literal('RENTAL'),
          Type.Literal('TOWING'),
          Type.Literal('OTHER'),
        ]),
      ),
      relatedAccountHolderId: Type.Optional(
        Type.Integer({ minimum: 1, description: 'The account holder this payee pays on behalf of, if any.' }),
      ),
    },
    creatable: true,
    example: { payeeCode: 'PAY-1', legalName: 'Precision Auto Repair LLC', payeeType: 'REPAIR_FACILITY' },
  },
  REINSURANCE_COMPANY: {
    kind: 'REINSURANCE_COMPANY',
    path: '/api/reinsurancecompanies',
    idParam: 'reinsuranceCompanyId',
    noun: 'reinsurance company',
    tag: 'Reinsurance companies',
    businessKeyField: 'companyCode',
    businessKeyDescription: 'Code of the reinsurance company.',
    details: {
      domicile: Type.Optional(
        Type.String({
          maxLength: 60,
          description:
            'Where the company is domiciled (a state, or an offshore jurisdiction such as Turks and Caicos).',
        }),
      ),
      naicCode: Type.Optional(
        Type.String({ pattern: '^[0-9]{5}$', description: 'NAIC company code, when it has one.' }),
      ),
    },
    creatable: true,
    example: {
      companyCode: 'LSRE',
      legalName: 'Lone Star Dealer Reinsurance, Ltd.',
      domicile: 'Turks and Caicos Islands',
    },
  },
}

export const ADMIN_COMPANY: KindDefinition = {
  kind: 'ADMIN_COMPANY',
  path: '/api/admincompanies',
  idParam: 'adminCompanyId',
  noun: 'administrator company',
  tag: 'Administrator company',
  businessKeyField: 'companyCode',
  businessKeyDescription: 'Code of the administrator company.',
  details: {
    obligorLicense: Type.Optional(
      Type.String({ maxLength: 40, description: 'Service-contract provider (obligor) registration number.' }),
    ),
  },
  creatable: false,
  example: { companyCode: 'ADMIN', legalName: 'Demo Administrator, Inc.' },
}

export function kindDefinition(kind: AccountHolderKind): KindDefinition {
  return kind === 'ADMIN_COMPANY' ? ADMIN_COMPANY : KINDS[kind]
}
