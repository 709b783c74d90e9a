// stdout is the CLI's reply channel: scripts parse what `--json` prints there, so nothing else may
// reach it. Whatever else writes to stdout (console.log in a library, a database notice) is sent
// to stderr instead, and the reply goes through the writer kept here.
import readline from 'node:readline'
import { Writable } from 'node:stream'
import { InputError } from './parse.ts'

export type ReplyWriter = (text: string) => Promise<void>

export function takeOverStdout(): ReplyWriter {
  const stdout = process.stdout
  const write = stdout.write.bind(stdout)
  stdout.write = process.stderr.write.bind(process.stderr)
  return (text) =>
    new Promise((resolve, reject) => {
      write(text, (err) => (err ? reject(err) : resolve()))
    })
}

/**
 * Reads one line from `input` (for secrets given on stdin rather than on the command line, where
 * other users of the machine could see them in the process list). On a terminal the prompt goes
 * to stderr and the typed characters are not echoed. Resolves undefined at end of input.
 */
export function readSecretLine(input: NodeJS.ReadStream, prompt: string): Promise<string | undefined> {
  const terminal = input.isTTY === true
  if (terminal) process.stderr.write(prompt)
  // On a terminal readline echoes what it reads through `output`; a sink that drops it hides the secret.
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  const rl = readline.createInterface({ input, output: terminal ? sink : undefined, terminal })
  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (line: string | undefined, err?: Error) => {
      if (settled) return
      settled = true
      if (terminal) process.stderr.write('\n')
      rl.close()
      input.pause()
      if (err) reject(err)
      else resolve(line)
    }
    rl.once('line', (line) => finish(line))
    rl.once('close', () => finish(undefined))
    rl.once('SIGINT', () => finish(undefined, new InputError('cancelled')))
  })
}
