// Wire shapes of contract transfers (docs/contracts.md "Transfers"): the request, the decision, the
// transfer request as read. The new owner is a person as the sale takes one (PersonSchema).
import { Type } from 'typebox'
import { DateTime, IntegerId, PagedQuery, enumOf, nullable } from '../../platform/http/schemas.ts'
import { PersonSchema } from './contract.schemas.ts'

const IsoDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description })
const Note = (description: string) => Type.Optional(nullable(Type.String({ maxLength: 1000, description })))

export const TransferParams = Type.Object({
  contractId: IntegerId('Contract id'),
  transferRequestId: IntegerId('Transfer request id'),
})

export const TransferListQuery = Type.Object({ ...PagedQuery }, { additionalProperties: false })

export const TRANSFER_REQUEST_BODY_EXAMPLE = {
  newOwner: {
    firstName: 'Jordan',
    lastName: 'Reyes',
    emailAddress: 'jordan.reyes@example.com',
    address: { line1: '88 Elm St', city: 'Austin', state: 'TX', postalCode: '78701' },
  },
  transferDate: '2026-11-20',
  odometer: 48210,
  note: 'Private sale; bill of sale on file',
}

export const TransferRequestBody = Type.Object(
  {
    newOwner: PersonSchema,
    newOwnerDealerId: Type.Optional(
      nullable(
        IntegerId(
          "When the new owner is a dealer (a vehicle taken onto a lot): its id; refused unless the product's transfer terms let a dealer own the contract.",
        ),
      ),
    ),
    transferDate: IsoDate(
      "The day the vehicle was sold to the new owner: on or after the contract's sale date, not in the future, within the product's transfer window.",
    ),
    odometer: Type.Optional(
      nullable(Type.Integer({ minimum: 0, maximum: 2_000_000, description: 'At the transfer.' })),
    ),
    note: Note('Why, and what was received.'),
  },
  { additionalProperties: false, examples: [TRANSFER_REQUEST_BODY_EXAMPLE] },
)

export const TransferDecisionBody = Type.Object(
  {
    status: enumOf(['APPROVED', 'REJECTED'] as const, 'APPROVED transfers the contract; REJECTED closes the request.'),
    decisionNote: Note('The reason of the decision.'),
  },
  {
    additionalProperties: false,
    description: "A merge patch of the request's status (and decision note): the decision.",
    examples: [{ status: 'APPROVED', decisionNote: 'Title copy received' }],
  },
)

export const TRANSFER_EXAMPLE = {
  id: 71,
  contractId: 900123,
  contractNumber: 'VSCPL-00A004352',
  status: 'APPROVED',
  transferDate: '2026-11-20',
  odometer: 48210,
  newOwner: {
    firstName: 'Jordan',
    middleInitial: null,
    lastName: 'Reyes',
    companyName: null,
    emailAddress: 'jordan.reyes@example.com',
    phoneNumber: null,
    address: { line1: '88 Elm St', line2: null, city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
  },
  newOwnerDealerId: null,
  previousCustomerId: 5511,
  newCustomerId: 7702,
  fee: 50,
  note: 'Private sale; bill of sale on file',
  decisionNote: 'Title copy received',
  journalEntryId: 40112,
  requestedAt: '2026-11-26T15:00:00.000Z',
  requestedBy: 'dealer.user@example.com',
  decidedAt: '2026-11-26T16:30:00.000Z',
  decidedBy: 'service.admin@example.com',
  version: 2,
}

const Address = Type.Object({
  line1: Type.String(),
  line2: nullable(Type.String()),
  city: Type.String(),
  state: Type.String(),
  postalCode: Type.String(),
  country: nullable(Type.String()),
})

export const ContractTransferSchema = Type.Object(
  {
    id: Type.Integer(),
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    status: enumOf(['REQUESTED', 'APPROVED', 'REJECTED'] as const),
    transferDate: IsoDate('The day the vehicle was sold to the new owner.'),
    odometer: nullable(Type.Integer()),
    newOwner: Type.Object({
      firstName: nullable(Type.String()),
      middleInitial: nullable(Type.String()),
      lastName: nullable(Type.String()),
      companyName: nullable(Type.String()),
      emailAddress: nullable(Type.String()),
      phoneNumber: nullable(Type.String()),
      address: nullable(Address),
    }),
    newOwnerDealerId: nullable(Type.Integer()),
    previousCustomerId: Type.Integer({ description: "The contract holder's account holder id when requested." }),
    newCustomerId: nullable(Type.Integer({ description: 'Set on approval: the matched or created customer.' })),
    fee: Type.Number({ description: "The product's transfer fee, posted on approval (0: none)." }),
    note: nullable(Type.String()),
    decisionNote: nullable(Type.String()),
    journalEntryId: nullable(Type.Integer({ description: 'The TRANSFER_FEE entry, when a fee was posted.' })),
    requestedAt: DateTime('When requested.'),
    requestedBy: Type.String(),
    decidedAt: nullable(DateTime('When approved or rejected.')),
    decidedBy: nullable(Type.String()),
    version: Type.Integer({ description: 'Row version, also the ETag.' }),
  },
  { $id: 'ContractTransfer', examples: [TRANSFER_EXAMPLE] },
)
