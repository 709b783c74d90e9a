// The operator commands. Each one checks its flags before any database is opened (prepare) and
// returns the work to do once it is (a Runner), which calls one operator use case and says what to
// print. Secrets are printed only when just created (API keys, on create and rotate). Only types
// come from the rest of the service, which session.ts loads once the command line has been checked,
// so help and usage errors answer at once.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { SealedSecrets, TenantService } from '../modules/identity/index.ts'
import type { DistributionPlan } from '../platform/db/distribution.ts'
import type { AuthenticatedContext } from '../platform/http/context.ts'
import type { RateBookService } from '../modules/rating/index.ts'
import type { SettingJson, SettingsService, SettingView } from '../modules/settings/index.ts'
import { lines, table } from './format.ts'
import { InputError, optionalText, positiveId, text, UsageError, type Flag, type Flags, type Values } from './parse.ts'

export type Services = {
  engine: 'pglite' | 'postgres'
  tenants: TenantService
  settings: Pick<SettingsService, 'listForOperator' | 'setForOperator' | 'resetForOperator'>
  rateBooks: Pick<RateBookService, 'importForOperator' | 'versions' | 'exportBook'>
  /** The sealed secrets (signing, quote-signing and link-signing keys), for re-sealing under the current key. */
  sealedSecrets: Pick<SealedSecrets, 'reseal'>
  /** Every known migration, with when it was applied. */
  migrationStatus(): Promise<ReadonlyArray<{ name: string; executedAt?: Date | undefined }>>
  /** The Citus statements for the schema, read from its catalog; throws DistributionRuleError when it breaks the rules. */
  distributionPlan(): Promise<DistributionPlan>
  /** The operator's system context in a tenant (audit label `cli:<user>`), which the operator use cases take as requests pass theirs. */
  operatorIn(tenantId: number): AuthenticatedContext
  /** When this invocation started, before the database was opened (and migrated). */
  startedAt: Date
}

/** What a command prints: `json` with --json, `text` otherwise. */
export type Reply = { json: unknown; text: string }

export type Runner = (services: Services) => Promise<Reply>

export type PrepareIo = { readSecretLine(prompt: string): Promise<string | undefined> }

export type Command = {
  group: string
  action: string
  summary: string
  /** Longer help: what the command does, caveats. */
  description?: string
  flags: Flags
  /** Usage line after the command name, when the generated one would mislead. */
  synopsis?: string
  /** Name of the one positional argument the command takes, if any (required). */
  positional?: string
  examples: string[]
  prepare(values: Values, io: PrepareIo): Promise<Runner>
}

const TENANT: Flag = { type: 'string', value: 'id', required: true, description: 'Tenant id' }

const SHOWN_ONCE = 'Store the API key now: it is shown only this once and cannot be recovered.'

const SETTING_KEY: Flag = {
  type: 'string',
  value: 'key',
  required: true,
  description: 'Setting key or id (see settings list)',
}

async function readJsonFile(file: string): Promise<Record<string, unknown>> {
  const content = await readTextFile(file)
  try {
    const parsed = JSON.parse(content) as unknown
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new InputError(`${file} does not hold a JSON object`)
    return parsed as Record<string, unknown>
  } catch (err) {
    if (err instanceof InputError) throw err
    throw new InputError(`${file} is not valid JSON: ${(err as Error).message}`)
  }
}

async function readTextFile(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8')
  } catch (err) {
    throw new InputError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
}

function settingValue(v: SettingJson): string {
  return typeof v === 'string' ? v : JSON.stringify(v)
}

function settingText(tenantId: number, s: SettingView): string {
  return lines(`Tenant ${tenantId}: ${s.key} = ${settingValue(s.value)}${s.isDefault ? ' (the default)' : ''}`)
}

function apiKeyText(heading: string, key: { id: number; name: string; apiKey: string }): string {
  return lines(heading, `  id:      ${key.id}`, `  name:    ${key.name}`, `  API key: ${key.apiKey}`, SHOWN_ONCE)
}

export const COMMANDS: readonly Command[] = [
  {
    group: 'tenant',
    action: 'create',
    summary: 'Create a tenant with its administrator, default roles and groups, and a first API key',
    description:
      'The administrator signs in through POST /api/auth/token with this email and password. ' +
      'A password on the command line is visible to other users of the machine (process list, shell history); ' +
      '--admin-password-stdin reads it from the first line of stdin instead (prompting, without echo, on a terminal).',
    flags: {
      name: { type: 'string', required: true, description: 'Tenant name' },
      'admin-email': {
        type: 'string',
        value: 'email',
        required: true,
        description: 'Email address of the tenant administrator',
      },
      'admin-password': {
        type: 'string',
        value: 'password',
        description: 'Administrator password, at least 12 characters',
      },
      'admin-password-stdin': { type: 'boolean', description: 'Read the administrator password from stdin instead' },
    },
    synopsis: '--name <name> --admin-email <email> (--admin-password <password> | --admin-password-stdin)',
    examples: [
      "tenant create --name Acme --admin-email admin@acme.example --admin-password 'correct horse battery' --json",
      'tenant create --name Acme --admin-email admin@acme.example --admin-password-stdin < password.txt',
    ],
    async prepare(v, io) {
      const name = text(v, 'name')
      const adminEmail = text(v, 'admin-email')
      const given = optionalText(v, 'admin-password')
      if (given !== undefined && v['admin-password-stdin'])
        throw new UsageError('give either --admin-password or --admin-password-stdin, not both')
      if (given === undefined && !v['admin-password-stdin'])
        throw new UsageError('missing required option --admin-password (or --admin-password-stdin)')
      const adminPassword = given ?? (await io.readSecretLine('Administrator password: '))
      if (adminPassword === undefined) throw new InputError('--admin-password-stdin: no password on stdin')
      return async ({ tenants, operatorIn }) => {
        const created = await tenants.createTenant({ name, adminEmail, adminPassword }, operatorIn)
        return {
          json: { tenantId: created.tenantId, apiKey: created.apiKey, adminUserId: created.adminUserId },
          text: lines(
            `Created tenant ${created.tenantId} (${name.trim()}).`,
            `  administrator: ${adminEmail} (user id ${created.adminUserId})`,
            `  API key:       ${created.apiKey}`,
            SHOWN_ONCE,
          ),
        }
      }
    },
  },
  {
    group: 'tenant',
    action: 'list',
    summary: 'List tenants',
    flags: {},
    examples: ['tenant list'],
    async prepare() {
      return async ({ tenants }) => {
        const rows = (await tenants.listTenants()).map((t) => ({
          id: t.id,
          name: t.name,
          createdAt: t.created_at.toISOString(),
        }))
        return {
          json: rows,
          text:
            rows.length === 0
              ? lines('No tenants.')
              : table(
                  ['ID', 'NAME', 'CREATED'],
                  rows.map((t) => [t.id, t.name, t.createdAt]),
                ),
        }
      }
    },
  },
  {
    group: 'apikey',
    action: 'create',
    summary: 'Create an API key for a tenant (shown once)',
    flags: {
      tenant: TENANT,
      name: { type: 'string', required: true, description: 'What the key is for, e.g. the calling application' },
    },
    examples: ['apikey create --tenant 1 --name billing-system'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const name = text(v, 'name').trim()
      if (!name) throw new InputError('--name must not be empty')
      return async ({ tenants, operatorIn }) => {
        const key = await tenants.createApiKey(operatorIn(tenantId), name)
        return { json: key, text: apiKeyText(`Created API key ${key.id} for tenant ${tenantId}.`, key) }
      }
    },
  },
  {
    group: 'apikey',
    action: 'list',
    summary: "List a tenant's API keys (prefixes only; keys are stored as hashes)",
    flags: { tenant: TENANT },
    examples: ['apikey list --tenant 1'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      return async ({ tenants }) => {
        const keys = await tenants.listApiKeys(tenantId)
        return {
          json: keys,
          text:
            keys.length === 0
              ? lines(`Tenant ${tenantId} has no API keys.`)
              : table(
                  ['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED'],
                  keys.map((k) => [k.id, k.name, k.prefix, k.createdAt, k.revokedAt]),
                ),
        }
      }
    },
  },
  {
    group: 'apikey',
    action: 'rotate',
    summary: 'Replace an API key: a new key with the same name (shown once); the old one stops working at once',
    flags: {
      tenant: TENANT,
      id: { type: 'string', value: 'keyId', required: true, description: 'Id of the key to replace (see apikey list)' },
    },
    examples: ['apikey rotate --tenant 1 --id 2'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const id = positiveId(v, 'id')
      return async ({ tenants, operatorIn }) => {
        const key = await tenants.rotateApiKey(operatorIn(tenantId), id)
        return {
          json: key,
          text: apiKeyText(`Replaced API key ${key.replaced} of tenant ${tenantId}; it no longer works.`, key),
        }
      }
    },
  },
  {
    group: 'apikey',
    action: 'revoke',
    summary: 'Revoke an API key; it stops working at once',
    flags: {
      tenant: TENANT,
      id: { type: 'string', value: 'keyId', required: true, description: 'Id of the key to revoke (see apikey list)' },
    },
    examples: ['apikey revoke --tenant 1 --id 2'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const id = positiveId(v, 'id')
      return async ({ tenants, operatorIn }) => {
        const revoked = await tenants.revokeApiKey(operatorIn(tenantId), id)
        return {
          json: revoked,
          text: lines(`Revoked API key ${revoked.id} of tenant ${tenantId} at ${revoked.revokedAt}.`),
        }
      }
    },
  },
  {
    group: 'signingkey',
    action: 'rotate',
    summary: "Rotate a tenant's token-signing key; tokens already issued stay valid until they expire",
    flags: { tenant: TENANT },
    examples: ['signingkey rotate --tenant 1'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      return async ({ tenants, operatorIn }) => {
        const rotated = await tenants.rotateSigningKey(operatorIn(tenantId))
        return { json: rotated, text: lines(`Tenant ${tenantId} now signs tokens with key ${rotated.kid}.`) }
      }
    },
  },
  {
    group: 'token',
    action: 'issue',
    summary: 'Issue a long-lived bearer token for a provisioning client (SCIM from Entra ID or Okta)',
    description:
      'The token acts as --user (give it a dedicated user with the User administrator role) and is accepted, with or without X-Api-Key, ' +
      'on the SCIM routes (/api/v2/...) only; every other route refuses it (403 permission_denied). ' +
      'Expiring the user revokes it at once; rotating the signing key revokes it 24 hours later.',
    flags: {
      tenant: TENANT,
      user: { type: 'string', value: 'id', required: true, description: 'Id of the user the token acts as' },
      days: { type: 'string', value: 'n', default: '365', description: 'Lifetime in days (1 to 730)' },
    },
    examples: ['token issue --tenant 1 --user 7 --days 365'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const userId = positiveId(v, 'user')
      const days = positiveId(v, 'days')
      return async ({ tenants, operatorIn }) => {
        const issued = await tenants.issueProvisioningToken(operatorIn(tenantId), userId, days)
        return {
          json: issued,
          text: lines(
            `Token for user ${userId} of tenant ${tenantId}, valid until ${issued.expiresAt}:`,
            issued.token,
            "Store it now in the identity provider's provisioning settings: it is shown only this once.",
          ),
        }
      }
    },
  },
  {
    group: 'idp',
    action: 'set',
    summary: 'Trust an external identity provider for a tenant (replaces the settings of the same issuer)',
    description:
      'Tokens from this issuer are accepted when signed by a key of its JWKS with an allowed algorithm, addressed to the audience, ' +
      'and naming in --claim the External Identity of an active user of the tenant.',
    flags: {
      tenant: TENANT,
      issuer: {
        type: 'string',
        value: 'url',
        required: true,
        description: 'Issuer (the iss claim), e.g. https://login.example.com/',
      },
      audience: { type: 'string', value: 'aud', required: true, description: 'Expected audience (the aud claim)' },
      'jwks-url': {
        type: 'string',
        value: 'url',
        required: true,
        description: "URL of the provider's JSON Web Key Set (https)",
      },
      claim: { type: 'string', value: 'claim', default: 'sub', description: 'Claim holding the External Identity' },
      algorithms: {
        type: 'string',
        value: 'list',
        default: 'RS256',
        description: 'Comma-separated allowed signature algorithms',
      },
    },
    examples: [
      'idp set --tenant 1 --issuer https://login.example.com/ --audience api://vpp --jwks-url https://login.example.com/keys --claim oid --algorithms RS256,ES256',
    ],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const claim = (optionalText(v, 'claim') ?? 'sub').trim()
      if (!claim) throw new InputError('--claim must not be empty')
      const algorithms = (optionalText(v, 'algorithms') ?? 'RS256')
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean)
      const settings = {
        issuer: text(v, 'issuer').trim(),
        audience: text(v, 'audience').trim(),
        jwksUrl: text(v, 'jwks-url').trim(),
        identityClaim: claim,
        algorithms,
      }
      return async ({ tenants, operatorIn }) => {
        const idp = await tenants.setIdentityProvider(operatorIn(tenantId), settings)
        return {
          json: idp,
          text: lines(
            `Tenant ${tenantId} trusts identity provider ${idp.issuer}.`,
            `  audience:   ${idp.audience}`,
            `  JWKS URL:   ${idp.jwksUrl}`,
            `  claim:      ${idp.identityClaim}`,
            `  algorithms: ${idp.algorithms.join(', ')}`,
          ),
        }
      }
    },
  },
  {
    group: 'idp',
    action: 'list',
    summary: 'List the identity providers a tenant trusts',
    flags: { tenant: TENANT },
    examples: ['idp list --tenant 1'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      return async ({ tenants }) => {
        const idps = await tenants.listIdentityProviders(tenantId)
        return {
          json: idps,
          text:
            idps.length === 0
              ? lines(`Tenant ${tenantId} trusts no identity provider.`)
              : table(
                  ['ID', 'ISSUER', 'AUDIENCE', 'CLAIM', 'ALGORITHMS', 'JWKS URL'],
                  idps.map((i) => [i.id, i.issuer, i.audience, i.identityClaim, i.algorithms.join(','), i.jwksUrl]),
                ),
        }
      }
    },
  },
  {
    group: 'idp',
    action: 'remove',
    summary: 'Stop trusting an identity provider; its tokens are refused at once',
    flags: {
      tenant: TENANT,
      issuer: { type: 'string', value: 'url', required: true, description: 'Issuer to remove (as shown by idp list)' },
    },
    examples: ['idp remove --tenant 1 --issuer https://login.example.com/'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const issuer = text(v, 'issuer').trim()
      return async ({ tenants, operatorIn }) => {
        const removed = await tenants.removeIdentityProvider(operatorIn(tenantId), issuer)
        return { json: removed, text: lines(`Tenant ${tenantId} no longer trusts ${removed.issuer}.`) }
      }
    },
  },
  {
    group: 'settings',
    action: 'list',
    summary: "List a tenant's general settings with the values in effect",
    flags: { tenant: TENANT },
    examples: ['settings list --tenant 1'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      return async ({ settings }) => {
        const all = await settings.listForOperator(tenantId)
        return {
          json: all,
          text: table(
            ['KEY', 'TYPE', 'VALUE', 'DEFAULT', 'UPDATED'],
            all.map((s) => [
              s.key,
              s.type,
              settingValue(s.value),
              settingValue(s.defaultValue),
              s.updatedAt ? `${s.updatedAt} by ${s.updatedBy ?? 'unknown'}` : null,
            ]),
          ),
        }
      }
    },
  },
  {
    group: 'settings',
    action: 'set',
    summary: 'Set one general setting of a tenant; the value is checked against the setting type',
    description:
      'The value is written as on the command line, e.g. 30, 12.50, true, 2026-01-31, P30D, or text. ' +
      'A value starting with a dash needs the --value=-5 form.',
    flags: { tenant: TENANT, key: SETTING_KEY, value: { type: 'string', required: true, description: 'New value' } },
    examples: [
      'settings set --tenant 1 --key freeLookDays --value 30',
      "settings set --tenant 1 --key timeZone --value 'America/Chicago'",
    ],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const key = text(v, 'key')
      const value = text(v, 'value')
      return async ({ settings, operatorIn }) => {
        const saved = await settings.setForOperator(operatorIn(tenantId), key, value)
        return { json: saved, text: settingText(tenantId, saved) }
      }
    },
  },
  {
    group: 'settings',
    action: 'reset',
    summary: 'Return one general setting of a tenant to its default',
    flags: { tenant: TENANT, key: SETTING_KEY },
    examples: ['settings reset --tenant 1 --key freeLookDays'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const key = text(v, 'key')
      return async ({ settings, operatorIn }) => {
        const saved = await settings.resetForOperator(operatorIn(tenantId), key)
        return { json: saved, text: settingText(tenantId, saved) }
      }
    },
  },
  {
    group: 'ratebook',
    action: 'import',
    positional: 'file',
    summary: "Import a rate book (JSON) as the tenant's next version, or check it with --dry-run",
    description:
      'The book is checked as a whole (docs/rate-books.md); every problem is printed with its location and nothing is stored. ' +
      "With --rates, the CSV file's rates are added to the book's. Running servers use the new version at once (on PostgreSQL through the invalidation bus).",
    synopsis: '<file> --tenant <id> [--rates <csv file>] [--dry-run]',
    flags: {
      tenant: TENANT,
      rates: { type: 'string', value: 'csv file', description: 'Rates as CSV (docs/rate-books.md)' },
      'dry-run': { type: 'boolean', description: 'Check only; store nothing' },
    },
    examples: [
      'ratebook import book.json --tenant 1 --dry-run',
      'ratebook import book.json --tenant 1 --rates rates.csv',
    ],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const file = text(v, 'file')
      const ratesFile = optionalText(v, 'rates')
      const book = await readJsonFile(file)
      if (ratesFile !== undefined) {
        if (book.ratesCsv !== undefined)
          throw new InputError(`${file} has ratesCsv already: give the rates either there or with --rates`)
        book.ratesCsv = await readTextFile(ratesFile)
      }
      const sources = {
        file: path.basename(file),
        ...(ratesFile === undefined ? {} : { csvFile: path.basename(ratesFile) }),
      }
      const dryRun = v['dry-run'] === true
      return async ({ rateBooks, tenants, operatorIn }) => {
        await tenants.assertTenant(tenantId)
        const result = await rateBooks.importForOperator(operatorIn(tenantId), book, { dryRun, sources })
        if (!result.ok) {
          const where = (p: (typeof result.problems)[number]) =>
            `${p.file}${p.path !== undefined ? ` ${p.path}` : ''}${p.row !== undefined ? ` row ${p.row}` : ''}${p.field !== undefined && p.path === undefined ? ` ${p.field}` : ''}`
          throw new InputError(
            lines(
              `the rate book was refused (${result.problems.length} problem(s)); nothing was stored:`,
              ...result.problems.map((p) => `  ${where(p)}: ${p.message} [${p.code}]`),
            ).trimEnd(),
          )
        }
        const r = result.result
        const counts = Object.entries(r.summary)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')
        const head = r.dryRun
          ? `The rate book is valid (dry run: nothing stored).`
          : r.unchanged
            ? `The rate book equals version ${r.version}: nothing stored.`
            : `Tenant ${tenantId}: rate book version ${r.version} stored, effective ${r.effectiveDate}.`
        return { json: r, text: lines(head, `  ${counts}`, `  checksum ${r.checksum}`) }
      }
    },
  },
  {
    group: 'ratebook',
    action: 'list',
    summary: "List a tenant's rate-book versions, newest first",
    flags: { tenant: TENANT },
    examples: ['ratebook list --tenant 1'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      return async ({ rateBooks, tenants }) => {
        await tenants.assertTenant(tenantId)
        const rows = await rateBooks.versions(tenantId)
        const json = rows.map((r) => ({
          version: r.version,
          id: r.id,
          effectiveDate: r.effective_date,
          description: r.description,
          checksum: r.checksum,
          summary: r.summary,
          importedAt: r.imported_at.toISOString(),
          importedBy: r.imported_by,
        }))
        return {
          json,
          text: table(
            ['VERSION', 'EFFECTIVE', 'IMPORTED', 'BY', 'DESCRIPTION'],
            json.map((r) => [String(r.version), r.effectiveDate, r.importedAt, r.importedBy, r.description]),
          ),
        }
      }
    },
  },
  {
    group: 'ratebook',
    action: 'export',
    summary: 'Write a rate-book version (default: the one in force today) in the import format',
    flags: {
      tenant: TENANT,
      version: { type: 'string', value: 'n', description: 'Version number (default: the version in force today)' },
      out: { type: 'string', value: 'file', description: 'Write to this file instead of stdout' },
    },
    examples: ['ratebook export --tenant 1 --out book.json', 'ratebook export --tenant 1 --version 3'],
    async prepare(v) {
      const tenantId = positiveId(v, 'tenant')
      const version = v.version === undefined ? ('active' as const) : positiveId(v, 'version')
      const out = optionalText(v, 'out')
      return async ({ rateBooks, tenants }) => {
        await tenants.assertTenant(tenantId)
        const book = await rateBooks.exportBook(tenantId, version)
        const body = `${JSON.stringify(book, null, 2)}\n`
        if (out === undefined) return { json: book, text: body }
        await fs.writeFile(out, body)
        return {
          json: { file: out, effectiveDate: book.effectiveDate },
          text: lines(`Wrote the rate book effective ${book.effectiveDate} to ${out}.`),
        }
      }
    },
  },
  {
    group: 'secrets',
    action: 'reseal',
    summary: 'Re-encrypt every stored secret under the current secrets key (the first of SECRETS_KEY)',
    description:
      'Step 2 of a secrets key rotation (docs/operations.md): with the new key first in SECRETS_KEY and the old one after it, ' +
      "seals every tenant's private signing keys, quote-signing key and download-link key under the new key, so the old key can then be removed. " +
      'Safe to run again, and while servers run.',
    flags: {},
    examples: ['secrets reseal'],
    async prepare() {
      return async ({ sealedSecrets }) => {
        const report = await sealedSecrets.reseal()
        return {
          json: report,
          text: lines(
            `Every stored secret is now sealed under secrets key ${report.keyId}.`,
            `  ${report.tenants} tenant(s); ${report.resealed} secret(s) re-sealed, ${report.unchanged} already under that key.`,
            ...Object.entries(report.tables).map(
              ([kind, count]) => `    ${kind}: ${count.resealed} re-sealed, ${count.unchanged} already under that key.`,
            ),
            'Keys after the first in SECRETS_KEY are no longer needed once every instance runs with this key first.',
          ),
        }
      }
    },
  },
  {
    group: 'db',
    action: 'migrate',
    summary: 'Bring the database schema up to date and report the migrations',
    description:
      'Every command (and the server at start-up) migrates first; this one only does that, and reports which migrations ran now.',
    flags: {},
    examples: ['db migrate'],
    async prepare() {
      return async ({ engine, migrationStatus, startedAt }) => {
        // The database was migrated when it was opened; what ran then carries a time after startedAt.
        const infos = await migrationStatus()
        const applied = infos.filter((m) => m.executedAt !== undefined && m.executedAt >= startedAt).map((m) => m.name)
        const all = infos.map((m) => ({ name: m.name, executedAt: m.executedAt?.toISOString() ?? null }))
        return {
          json: { engine, applied, migrations: all },
          text: lines(
            applied.length === 0
              ? `The ${engine} database schema was already up to date.`
              : `Applied ${applied.length} migration${applied.length > 1 ? 's' : ''} to the ${engine} database:`,
            ...applied.map((name) => `  ${name}`),
            `${all.length} migration${all.length === 1 ? '' : 's'} in total; latest: ${all.at(-1)?.name ?? 'none'}.`,
          ),
        }
      }
    },
  },
  {
    group: 'db',
    action: 'distribute',
    summary: 'Print the statements that distribute the schema by tenant on a Citus coordinator',
    description:
      'Reads the catalog of the (migrated) database and prints, without running anything, the SQL an operator runs on a Citus coordinator: ' +
      'create_reference_table for the tables without tenant_id (the migration bookkeeping stays local to the coordinator), then ' +
      "create_distributed_table(…, 'tenant_id', colocate_with => …) for every tenant table, each after the tables it references. " +
      'Refuses (status 1, every problem on stderr) when a table breaks the distribution rules: a nullable tenant_id, ' +
      'a primary key, unique constraint or unique index without tenant_id, a foreign key between tenant tables that does not pair ' +
      'tenant_id on both sides, or a table without tenant_id referencing a tenant table.',
    flags: {
      print: { type: 'boolean', required: true, description: 'Print the statements (this command never runs them)' },
    },
    examples: ['db distribute --print > distribute.sql', 'db distribute --print --json'],
    async prepare() {
      return async ({ distributionPlan }) => {
        const plan = await distributionPlan()
        return {
          json: {
            referenceTables: plan.referenceTables,
            distributedTables: plan.distributedTables,
            localTables: plan.localTables,
            statements: plan.statements,
          },
          text: plan.script,
        }
      }
    },
  },
]
