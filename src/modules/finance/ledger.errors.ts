// Error codes of the ledger core. An invalid or unbalanced entry is a fault of the posting code,
// never of a client's input (routes validate before they post), so those two are 500-class: the
// caller may map them, and nothing of the entry is stored. A closed period is a state of the books
// that the request conflicts with (409, like a contract's state), not a fault of the request.
import { defineErrors } from '../../platform/http/errors.ts'

export const ledgerErrors = defineErrors({
  ledger_entry_invalid: { status: 500, title: 'Invalid ledger entry' },
  ledger_unbalanced: { status: 500, title: 'Ledger entry does not balance' },
  ledger_entry_not_found: { status: 404, title: 'Ledger entry not found' },
  ledger_entry_already_reversed: { status: 409, title: 'Ledger entry already reversed' },
  ledger_entry_not_reversible: { status: 409, title: 'Ledger entry cannot be reversed' },
  ledger_period_closed: { status: 409, title: 'Accounting period closed' },
})
