// The CLI driver: finds the command, checks its flags and values, then loads the rest of the
// service and runs the command (session.ts). Exit status: 0 done, 1 failed, 2 the command line is
// wrong. Help and command-line mistakes are answered without loading or opening anything.
import type { Database } from '../platform/db/database.ts'
import { COMMANDS, type Command, type Runner } from './commands.ts'
import { EXIT, flagHelp, InputError, parseFlags, UsageError, usageLine, type Values } from './parse.ts'
import type { ReplyWriter } from './stdio.ts'

export type CliIo = {
  /** Writes the reply (stdout). */
  reply: ReplyWriter
  /** Writes diagnostics (stderr). */
  diagnostic(text: string): void
  readSecretLine(prompt: string): Promise<string | undefined>
}

export type CliOptions = {
  /**
   * An open (and migrated) database to run on instead of opening the configured one; the caller
   * keeps it open. For tests that run many commands in one process (test/cli.test.ts); admin.ts
   * never passes it.
   */
  database?: Database
}

const PROGRAM = 'npm run admin --'
const HELP_WORDS = new Set(['help', '--help', '-h'])

export async function runCli(argv: readonly string[], io: CliIo, options: CliOptions = {}): Promise<number> {
  const [first, second, ...rest] = argv
  if (first === undefined) return usageFailure(io, 'missing command', topHelp())
  if (HELP_WORDS.has(first)) return help(io, first === 'help' ? [second, rest[0]] : [])
  const group = COMMANDS.filter((c) => c.group === first)
  if (group.length === 0) {
    return usageFailure(
      io,
      first.startsWith('-') ? `unknown option '${first}' (options follow the command)` : `unknown command '${first}'`,
      topHelp(),
    )
  }
  if (second !== undefined && HELP_WORDS.has(second)) return help(io, [first])
  if (second === undefined || second.startsWith('-'))
    return usageFailure(io, `missing command after '${first}'`, groupHelp(first))
  const command = group.find((c) => c.action === second)
  if (!command) return usageFailure(io, `unknown command '${first} ${second}'`, groupHelp(first))

  let values: Values
  let runner: Runner
  try {
    values = parseFlags(command.flags, rest, command.positional)
    if (values.help) {
      await io.reply(commandHelp(command))
      return EXIT.ok
    }
    runner = await command.prepare(values, io)
  } catch (err) {
    if (err instanceof UsageError) {
      return usageFailure(
        io,
        err.message,
        `usage: ${usageLine(PROGRAM, name(command), command.flags, command.synopsis)}\nRun '${PROGRAM} ${name(command)} --help' for details.\n`,
      )
    }
    if (err instanceof InputError) {
      io.diagnostic(`error: ${err.message}\n`)
      return EXIT.failure
    }
    throw err
  }
  const { execute } = await import('./session.ts')
  return execute(runner, { json: values.json === true, reply: io.reply, diagnostic: io.diagnostic }, options.database)
}

function name(c: Command): string {
  return `${c.group} ${c.action}`
}

function usageFailure(io: CliIo, problem: string, usage: string): number {
  io.diagnostic(`error: ${problem}\n\n${usage}`)
  return EXIT.usage
}

async function help(io: CliIo, words: ReadonlyArray<string | undefined>): Promise<number> {
  const [group, action] = words
  const commands = COMMANDS.filter((c) => c.group === group)
  const command = commands.find((c) => c.action === action)
  if (group === undefined) await io.reply(topHelp())
  else if (commands.length === 0) return usageFailure(io, `unknown command '${group}'`, topHelp())
  else if (action === undefined) await io.reply(groupHelp(group))
  else if (!command) return usageFailure(io, `unknown command '${group} ${action}'`, groupHelp(group))
  else await io.reply(commandHelp(command))
  return EXIT.ok
}

function commandList(commands: readonly Command[]): string[] {
  const width = Math.max(...commands.map((c) => name(c).length))
  return commands.map((c) => `  ${name(c).padEnd(width)}  ${c.summary}`)
}

function topHelp(): string {
  return [
    'Operator commands for the VPP administration service.',
    '',
    `usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commandList(COMMANDS),
    '',
    'Every command accepts --json (one JSON value on stdout) and --help.',
    "The database is the server's: PostgreSQL when DATABASE_URL is set, otherwise the embedded",
    'database in DATA_DIR (default ./data), which only one process may use at a time.',
    'Exit status: 0 done, 1 failed, 2 wrong command line.',
    `Run '${PROGRAM} <command> --help' for a command's options.`,
    '',
  ].join('\n')
}

function groupHelp(group: string): string {
  const commands = COMMANDS.filter((c) => c.group === group)
  return [
    `usage: ${PROGRAM} ${group} <${commands.map((c) => c.action).join('|')}> [options]`,
    '',
    'Commands:',
    ...commandList(commands),
    '',
  ].join('\n')
}

function commandHelp(c: Command): string {
  return [
    `usage: ${usageLine(PROGRAM, name(c), c.flags, c.synopsis)}`,
    '',
    `${c.summary}.`,
    ...(c.description ? [wrap(c.description)] : []),
    '',
    'Options:',
    ...flagHelp(c.flags),
    '',
    c.examples.length > 1 ? 'Examples:' : 'Example:',
    ...c.examples.map((e) => `  ${PROGRAM} ${e}`),
    '',
  ].join('\n')
}

function wrap(paragraph: string, width = 100): string {
  const out: string[] = []
  let line = ''
  for (const word of paragraph.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) out.push(line)
  return out.join('\n')
}
