// Command-line grammar of the operator CLI: `<group> <action> [--flag value]... [--json] [--help]`,
// parsed with node:util parseArgs. Two kinds of refusal, with different exit codes: a UsageError
// (the command line does not fit the grammar: exit 2, usage shown) and an InputError (it fits, but
// a value is unacceptable: exit 1, one line).
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const

export class UsageError extends Error {}
export class InputError extends Error {}

export type Flag = {
  type: 'string' | 'boolean'
  /** Placeholder shown in usage, e.g. `<id>`. */
  value?: string
  required?: boolean
  /** Shown in help; the value used when the flag is absent. */
  default?: string
  description: string
}

export type Flags = Record<string, Flag>

// No flag is `multiple`, so arrays never occur; the type is what parseArgs declares.
export type Values = Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>

/** Flags every command accepts. */
export const COMMON_FLAGS: Flags = {
  json: { type: 'boolean', description: 'Print the result as one JSON value on stdout' },
  help: { type: 'boolean', description: 'Show this help' },
}

/**
 * Reads the flags, and the one positional argument a command may declare (`positional`: its name,
 * stored under that name, e.g. the file of `ratebook import <file>`).
 */
export function parseFlags(flags: Flags, args: string[], positional?: string): Values {
  const options: ParseArgsOptionsConfig = {}
  for (const [name, flag] of Object.entries({ ...flags, ...COMMON_FLAGS })) options[name] = { type: flag.type }
  options.help = { type: 'boolean', short: 'h' }

  // A lenient pass names unknown flags and stray words in our own terms (parseArgs' strict message
  // suggests positional arguments, which no command takes); the strict pass then refuses missing or
  // dash-leading values, which the lenient one would swallow.
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
  const positionals: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!positional || positionals.length > 0) throw new UsageError(`unexpected argument '${token.value}'`)
      positionals.push(token.value)
      continue
    }
    if (token.kind === 'option' && !Object.hasOwn(options, token.name))
      throw new UsageError(`unknown option '${token.rawName}'`)
  }
  let values: Values
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals: positional !== undefined }).values
    if (positional && positionals[0] !== undefined) values = { ...values, [positional]: positionals[0] }
  } catch (err) {
    if (isParseArgsError(err)) throw new UsageError(err.message)
    throw err
  }
  if (values.help) return values
  const missing = Object.entries(flags)
    .filter(([name, f]) => f.required && values[name] === undefined)
    .map(([name]) => `--${name}`)
  if (positional && values[positional] === undefined) missing.unshift(`<${positional}>`)
  if (missing.length > 0)
    throw new UsageError(`missing required option${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  return values
}

function isParseArgsError(err: unknown): err is Error {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === 'string' &&
    ((err as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS_')
  )
}

/** The value of a string flag that parseFlags has already required. */
export function text(values: Values, name: string): string {
  const v = values[name]
  if (typeof v !== 'string') throw new UsageError(`missing required option --${name}`)
  return v
}

export function optionalText(values: Values, name: string): string | undefined {
  const v = values[name]
  return typeof v === 'string' ? v : undefined
}

/** A database id: a positive integer within the range of the id columns. */
export function positiveId(values: Values, name: string): number {
  const raw = text(values, name)
  const n = Number(raw)
  if (!/^[1-9][0-9]*$/.test(raw) || !Number.isSafeInteger(n))
    throw new InputError(`--${name} must be a positive integer (got "${raw}")`)
  return n
}

/** `synopsis` replaces the generated list of flags where they combine in ways it cannot say. */
export function usageLine(program: string, command: string, flags: Flags, synopsis?: string): string {
  if (synopsis !== undefined) return [program, command, synopsis, '[--json]'].join(' ')
  const parts = Object.entries(flags).map(([name, f]) => {
    const word = f.type === 'string' ? `--${name} <${f.value ?? name}>` : `--${name}`
    return f.required ? word : `[${word}]`
  })
  return [program, command, ...parts, '[--json]'].join(' ')
}

export function flagHelp(flags: Flags): string[] {
  const rows = Object.entries({ ...flags, ...COMMON_FLAGS }).map(([name, f]) => {
    const left = `${name === 'help' ? '-h, ' : ''}--${name}${f.type === 'string' ? ` <${f.value ?? name}>` : ''}`
    const notes = [f.required ? 'required' : '', f.default !== undefined ? `default: ${f.default}` : ''].filter(Boolean)
    return [left, `${f.description}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`] as const
  })
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)
}
